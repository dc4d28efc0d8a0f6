// Package workbook writes a set as an XLSX workbook.
//
// The workbook holds these sheets, in order:
//
//   - summary: the experiment in a paragraph, the headline, the break-even
//     table and a decision map. The answer is on the first screen.
//   - what-if: input cells (failure probability, state rows, source; the
//     defined names whatif_probability, whatif_state_rows, whatif_source).
//     Each declared interval's expected total is a live formula of them,
//     beside the best interval by formula and a chart of the totals.
//   - charts: the set's charts, each beside the table of its figures.
//   - grid and failures, then decisions and breakeven when the set has
//     them: the tables of the CSV files. Numbers are numeric cells, best is
//     a boolean cell, the header row is frozen, an autofilter covers the
//     data and the best rows are highlighted. A table longer than
//     MaxSheetRows goes on as grid-2, grid-3, ...
//   - recovery, matrix, cost, probability and partition: the lesson's own
//     tables, a titled block per combination of the axes they depend on.
//     The best interval of the probability table is highlighted.
//   - experiment: the resolved configuration, its hash and the version.
//
// Every sheet is set up to print on A4, fit to the width of a page (or of
// a few, with its key columns repeated). A sheet too wide to print upright
// is landscape. Header rows repeat on every page, and blocks and charts
// move whole to the next page rather than being cut.
//
// Numbers keep their value, to the 15 significant digits a cell holds,
// shown with the decimals their column asks for. The CSV files are the
// exact record. The same set gives the same bytes.
//
// Every sheet is made with excelize's stream writer. The tables' rows are
// written into their sheets as the archive is assembled (tableRows). The
// archive and the compressed sheets stay in memory while small and go to
// scratch files past that (archiveInMemory, packedInMemory), so memory
// does not grow with the tables. Bound says how much it holds.
//
// Diff tells, for run --check, in which parts two workbooks differ.
package workbook
