// Package tables reads the leaf tables that segmentation records
// (page.Table): it tells data tables from layout tables, types the cells of
// data tables, and linearises each data row into one clause a parser can
// read, after Kitten (seed, section 3.1).
//
// Kitten trains two decision trees for the first two steps; sluice trains
// gradient-boosted trees (package gbdt) on its own annotated table set
// (tableset/labels, guide in docs/tables-labelling.md): Model holds them,
// over the features of Measure (Wang & Hu's and Kitten's: grid size,
// empty-cell rates per row and column, cell length consistency,
// th/thead/scope/caption/summary evidence, form controls, tag count,
// nesting; TableColumns) and of CellVectors. Classify and TypeCells use the
// embedded model (DefaultModel); HeuristicKind and HeuristicCells are the
// fallback when no model is given, and a feature of the trained ones.
//
// Everything here is bounded: a table whose grid has more than MaxGrid
// slots is classified as layout and left alone.
package tables
