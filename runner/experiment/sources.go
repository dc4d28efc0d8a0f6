package experiment

import "ckptlab/model"

// SourceList returns the sources to draw in table order: grid by grid of
// the cases, and in each seeds, then subscribers, then periods. A source
// every point of which is excluded is left out, and a source several cases
// share is there once, where it first comes.
func (e *Experiment) SourceList() []model.Source {
	srcs, _ := drawn(e.gridSources())
	return srcs
}

// GridSource is a source of one of the experiment's grids. Evaluation
// makes one source result of each, its grid giving the partitionings,
// state rows, probabilities and intervals the result shows.
type GridSource struct {
	model.Source
	Grid *Grid
}

// GridSources returns the sources of the experiment in table order, with,
// for each, the index of the source it is drawn from in SourceList: grid
// by grid, and in each, seeds, then subscribers, then periods. A source
// every point of which is excluded is left out. A source of two cases is
// there twice, once for each, and drawn once. Evaluation assembles its
// result from it: a source result for each, from the tally of its drawn
// source.
func (e *Experiment) GridSources() (gs []GridSource, drawnAt []int) {
	gs = e.gridSources()
	_, drawnAt = drawn(gs)
	return gs, drawnAt
}

// gridSources returns the sources of GridSources, in its order.
func (e *Experiment) gridSources() []GridSource {
	var out []GridSource
	grids := e.Grids()
	ix := e.Excluder()
	for i := range grids {
		g := &grids[i]
		left := e.sourceLeft(g, ix)
		for _, seed := range g.Seeds {
			for _, n := range g.Subscribers {
				for _, p := range g.Periods {
					if !left(seed, n, p) {
						continue
					}
					out = append(out, GridSource{Grid: g, Source: model.Source{Seed: seed, Subscribers: n, Periods: p,
						Start: e.Start, Missing: e.Missing, Duplicates: e.Duplicates}})
				}
			}
		}
	}
	return out
}

// drawn returns the sources to draw for the grid sources gs: each source
// once, in the order it first comes, and for each of gs the index of its
// source. A source of several cases is drawn once: its tally counts the
// partitionings of every grid.
func drawn(gs []GridSource) (srcs []model.Source, index []int) {
	at := make(map[model.Source]int, len(gs))
	index = make([]int, len(gs))
	for i, g := range gs {
		s, ok := at[g.Source]
		if !ok {
			s = len(srcs)
			at[g.Source] = s
			srcs = append(srcs, g.Source)
		}
		index[i] = s
	}
	return srcs, index
}

// Partitionings returns the partitionings every source is counted over:
// those of every grid, each once, in the order they first come. One list
// for every source keeps tallies of one experiment alike; a source of a
// grid with fewer partitionings counts some it does not show. Evaluation
// counts, and shard files record, a tally of exactly these.
func (e *Experiment) Partitionings() []model.Partitioning {
	grids := e.Grids()
	if len(grids) == 1 { // an axis lists each value once
		return grids[0].Partitionings()
	}
	var out []model.Partitioning
	seen := make(map[model.Partitioning]bool)
	for i := range grids {
		for _, p := range grids[i].Partitionings() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Partitionings returns the partitionings of every source of the grid in
// table order: partition keys, then worker counts. A source result has one
// part of each, in this order.
func (g *Grid) Partitionings() []model.Partitioning {
	out := make([]model.Partitioning, 0, len(g.PartitionKeys)*len(g.Workers))
	for _, k := range g.PartitionKeys {
		for _, w := range g.Workers {
			out = append(out, model.Partitioning{Key: k, Workers: w})
		}
	}
	return out
}
