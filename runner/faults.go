package runner

import (
	"sync"
	"sync/atomic"

	"ckptlab/model"
)

// A source with faults is counted in tasks of up to a fault block each
// (taskSize), and model.Source.Count draws both fault sequences whole for
// every block. Where a source has enough tasks, its subscribers are cut
// instead into windows of whole tasks whose fault draws are drawn once
// into a model.FaultIndex, shared read-only by the window's tasks: drawn
// by the first two of them to start, dropped when the last one ends.
const (
	// indexBudget is the most memory the fault indexes of a run hold at
	// once: a window's index may take indexBudget / Jobs, and no more than
	// Jobs of them are alive at a time. A source too dense in faults for
	// windows of minIndexedTasks tasks within it is counted by redrawing,
	// in the 2 MiB of bits per goroutine of a block.
	indexBudget = 256 << 20
	// minIndexedTasks is the fewest tasks a window is indexed for: an index
	// draws the sequences twice (to size its buckets, then to fill them),
	// the tasks that redraw draw them once each.
	minIndexedTasks = 3
	// A window's index is expected to fill fillNum/fillDen of its limit.
	// Where a source is cut into several windows each one holds millions
	// of draws, whose number varies by a few thousandths of it from window
	// to window: a quarter to spare keeps them all indexed.
	fillNum, fillDen = 3, 4
)

// faultWindow returns how many subscribers of src, in whole tasks, one
// fault index covers, and the most bytes that index may take (-j jobs);
// 0, 0 when src is counted by redrawing. The indexes share budget
// (indexBudget but in tests). The source is cut into as few windows as
// keep each one's expected index, the draws spread evenly over the
// records, within fillNum/fillDen of the limit, a number that never falls
// as the source grows (faultIndexMemory counts on it). An index that would still
// take more than the limit is refused (model.Source.IndexFaults) and its
// window redrawn, so the limit holds whatever the draws.
func faultWindow(src model.Source, jobs int, budget int64) (subs int, limit int64) {
	windows, limit := faultWindows(src, jobs, budget)
	if windows == 0 {
		return 0, 0
	}
	size := taskSize(src)
	tasks := (src.Subscribers + size - 1) / size
	perWindow := (tasks + windows - 1) / windows
	if perWindow < minIndexedTasks {
		return 0, 0
	}
	return perWindow * size, limit
}

// faultWindows returns the number of windows faultWindow cuts src into,
// and their limit, budget shared by Jobs(jobs); 0 when src has no faults
// or too few tasks to index.
func faultWindows(src model.Source, jobs int, budget int64) (windows int, limit int64) {
	if src.Missing == 0 && src.Duplicates == 0 {
		return 0, 0
	}
	size := taskSize(src)
	if (src.Subscribers+size-1)/size < minIndexedTasks {
		return 0, 0
	}
	limit = budget / int64(jobsFor(jobs))
	expected := src.FaultIndexBytes(0, src.Subscribers)
	fill := limit / fillDen * fillNum
	return int((expected + fill - 1) / fill), limit
}

// faultIndexMemory bounds the fault indexes of a run over sources of at
// most src.Subscribers subscribers, src's periods and faults: the windows
// one source is cut into, and the most bytes one window's index takes.
// A smaller source is cut into no more windows, and its index holds no
// more buckets.
func faultIndexMemory(src model.Source, jobs int) (windows, each int64) {
	w, limit := faultWindows(src, jobs, indexBudget)
	if w == 0 {
		return 0, 0
	}
	return int64(w), min(limit, src.FaultIndexBytes(0, src.Subscribers))
}

// sharedFaults is one window's fault index: subscribers lo..hi-1 of src,
// counted in left tasks. Its two sequences are drawn by the first two
// tasks to start, one each (the first the missing, the second the
// duplicates draws), so that a second goroutine draws rather than waits;
// each task then waits for both.
type sharedFaults struct {
	src      model.Source
	lo, hi   int
	limit    int64
	left     atomic.Int64
	arrivals atomic.Int64

	drawn [2]struct {
		once sync.Once
		ok   bool // drawn within the limit
	}
	index *model.FaultIndex // nil once the last task ended
}

// count counts subscribers lo..hi-1 of the window into t through the
// window's index, drawing its sequences on first use, or by redrawing if
// the index was refused; it drops the index after the window's last task.
func (f *sharedFaults) count(t *model.Tally, lo, hi int) {
	index := f.index
	draws := [2]func(int64) bool{index.DrawMissing, index.DrawDuplicates}
	first := int(f.arrivals.Add(1)-1) % 2
	for _, k := range [2]int{first, 1 - first} {
		f.drawn[k].once.Do(func() { f.drawn[k].ok = draws[k](f.limit) })
	}
	if f.drawn[0].ok && f.drawn[1].ok {
		index.Count(t, lo, hi)
	} else {
		f.src.Count(t, lo, hi)
	}
	if f.left.Add(-1) == 0 {
		f.index = nil // every task of the window has read it
	}
}

// cutTasks appends to tasks the tasks of piece p of src, and to shared
// each task's fault index window, nil for a task that redraws.
func cutTasks(tasks []piece, shared []*sharedFaults, p piece, src model.Source, opt Options) ([]piece, []*sharedFaults) {
	size := taskSize(src)
	budget := opt.indexBudget
	if budget == 0 {
		budget = indexBudget
	}
	window, limit := faultWindow(src, opt.Jobs, budget)
	if window == 0 {
		window = p.Hi - p.Lo
	}
	for wlo := p.Lo; wlo < p.Hi; wlo += window {
		whi := min(wlo+window, p.Hi)
		var f *sharedFaults
		if limit > 0 && (whi-wlo+size-1)/size >= minIndexedTasks {
			f = &sharedFaults{src: src, lo: wlo, hi: whi, limit: limit, index: src.NewFaultIndex(wlo, whi)}
		}
		for lo := wlo; lo < whi; lo += size {
			tasks = append(tasks, piece{Source: p.Source, Lo: lo, Hi: min(lo+size, whi)})
			shared = append(shared, f)
			if f != nil {
				f.left.Add(1)
			}
		}
	}
	return tasks, shared
}
