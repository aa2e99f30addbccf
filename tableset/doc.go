// Package tableset is sluice's annotated table set (Kitten, seed section
// 3.1): leaf tables of the pages in ../shared/data labelled data or layout,
// and the cell roles of data tables, kept as references to the pages (set,
// page id, table index, cell grid coordinates), never as the pages' HTML.
//
// Two tab-separated files hold the labels; a line starting with # is a
// comment, and blank lines are skipped:
//
//	tables file: set  page  table  label  [note]
//	cells file:  set  page  table  row  col  role
//
// table is the index of the table in page.Page.Tables as segmentation
// records it; label is data, layout or ? (not labelled yet); row and col
// are the grid coordinates of the cell's top-left slot (page.Cell.Row,
// Col); role is a tables.Role name (header, data, neutral, thema,
// finalImportant, finalNonImportant).
//
// Sample chooses tables to label, Dump prints them for a labeller without
// the heuristic's guess, Check validates the files against the data, and
// Load returns the labelled tables with their pages, for training and
// evaluation. Train fits a tables.Model (the table classifier and the cell
// models) on them, and CrossValidate measures it against the heuristics
// with folds grouped by site. "sluice tables" is the command line over
// them, docs/tables-labelling.md the labelling guide and docs/tables.md
// the training.
package tableset
