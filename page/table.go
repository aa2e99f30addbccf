package page

// Bounds on the table grids that segmentation records (see Table). They keep
// time and memory linear in the input whatever the spans say.
const (
	// MaxColSpan is the largest colspan kept (the HTML limit); larger ones
	// are clipped to it.
	MaxColSpan = 1000
	// MaxRowSpan is the largest rowspan kept (the HTML limit).
	MaxRowSpan = 65534
	// MaxTableCols is the widest grid recorded: cells beyond this column are
	// dropped and spans reaching past it are clipped.
	MaxTableCols = 1000
	// MaxTableCells is the most cells recorded for one table; the rest are
	// dropped and the table marked Truncated.
	MaxTableCells = 100_000
)

// Table is the grid of one leaf table (a table with no table inside) of the
// page, recorded while segmenting, since the element tree is gone after it.
// Its rowspans and colspans are resolved into grid coordinates.
type Table struct {
	// Node is the index in Page.Nodes of the <table> element.
	Node int32
	// Caption is the text of the table's <caption>, Summary its summary
	// attribute.
	Caption, Summary string
	// Rows and Cols are the grid's size, after spans are resolved.
	Rows, Cols int32
	// Nested is the number of tables around this one (0 for a top-level
	// table): Kitten's "leaf of an embedded table".
	Nested int32
	// Forms counts form controls inside the table (form, input, select,
	// textarea, button).
	Forms int32
	// THead is true when the table has a <thead>.
	THead bool
	// Truncated is true when cells were dropped by MaxTableCells or
	// MaxTableCols.
	Truncated bool
	// Cells are the table's cells in document order.
	Cells []Cell
}

// Cell is one cell of a Table.
type Cell struct {
	// Node is the index in Page.Nodes of the td or th element.
	Node int32
	// Row and Col are the grid coordinates of the cell's top-left slot;
	// RowSpan and ColSpan (at least 1) how many rows and columns it covers,
	// clipped to the grid.
	Row, Col, RowSpan, ColSpan int32
	// TH is true for a <th>, Head for a cell inside <thead>, Scope for a
	// cell with a scope attribute.
	TH, Head, Scope bool
	// First and End delimit the blocks of the cell: Blocks[First:End].
	First, End int32
	// Chars is the number of characters of the cell's text, spaces excluded.
	Chars int32
}
