// Package tables reads the leaf tables that segmentation records
// (page.Table): it tells data tables from layout tables, types the cells of
// data tables, and linearises each data row into one clause a parser can
// read, after Kitten (seed, section 3.1).
//
// Kitten trains two decision trees for the first two steps; until sluice
// ships its annotated table set and the trained classifiers, Classify and
// TypeCells are heuristics over the same features (Wang & Hu's and
// Kitten's: grid size, empty-cell rates per row and column, cell length
// consistency, th/thead/scope/caption/summary evidence, form controls, tag
// count, nesting), and they remain the fallback when no model is given.
//
// Everything here is bounded: a table whose grid has more than MaxGrid
// slots is classified as layout and left alone.
package tables
