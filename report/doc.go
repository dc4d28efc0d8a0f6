// Package report turns an evaluated run into the tables, views, charts,
// headline and what-if sheet that results renders. It computes the run's
// answer once (package answer) and reads it everywhere. Its one walk over
// the grid's points feeds every table and view.
package report
