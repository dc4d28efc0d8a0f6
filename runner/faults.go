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
// by the first two of them to start, dropped when the last one ends. The
// windows of one source are sized together (model.FaultSizes): each
// sequence is drawn once to count every window's buckets, by the first two
// tasks of the source, and once per window to fill them.
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
	// A window's index is expected to fill fillNum/fillDen of its share of
	// the budget, and of its own limit. Where a source is cut into several windows each one holds millions
	// of draws, whose number varies by a few thousandths of it from window
	// to window: an eighth to spare keeps them all indexed. Every window
	// fewer is a pass over the sequences fewer (model.FaultSizes).
	fillNum, fillDen = 7, 8
	// A source's windows are sized together when their buckets' sizes take
	// no more than a window's limit / sizesDen, as they do unless the
	// faults are sparse over many records (a few draws per bucket of 2^16
	// records); otherwise each window sizes its own.
	sizesDen = 16
)

// faultWindow returns how many subscribers of src, in whole tasks, one
// fault index covers, and the most bytes that index may take (-j jobs);
// 0, 0 when src is counted by redrawing. The indexes share budget
// (indexBudget but in tests). The source is cut into as few windows as
// keep each one's expected index, the draws spread evenly over the
// records, within fillNum/fillDen of the budget's share, a number that
// never falls as the source grows (faultIndexBound counts on it). A
// window's limit is its expected index with the same eighth to spare,
// within the share. An index that would still take more than the limit is
// refused (model.Source.IndexFaults) and its window redrawn, so the limit
// holds whatever the draws.
func faultWindow(src model.Source, jobs int, budget int64) (subs int, limit int64) {
	windows, share := faultWindows(src, jobs, budget)
	if windows == 0 {
		return 0, 0
	}
	size := taskSize(src)
	tasks := (src.Subscribers + size - 1) / size
	perWindow := (tasks + windows - 1) / windows
	if perWindow < minIndexedTasks {
		return 0, 0
	}
	subs = min(perWindow*size, src.Subscribers)
	expected := src.ExpectedFaultIndexBytes(0, subs)
	return subs, min(share, expected/fillNum*fillDen+fillDen)
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

// faultIndexMemory bounds the fault indexes of a run over sources of
// src's subscribers, periods and faults: the windows one source is cut
// into, the most bytes one window's index takes, and the most a source's
// windows sized together hold in sizes (0 if it is cut into one window,
// which sizes its own).
func faultIndexMemory(src model.Source, jobs int) (windows, each, sizes int64) {
	subs, limit := faultWindow(src, jobs, indexBudget)
	if subs == 0 {
		return 0, 0, 0
	}
	windows = int64((src.Subscribers + subs - 1) / subs)
	if windows > 1 { // a source's windows, or a shard's, may be sized together
		sizes = min(src.FaultSizesBytes(0, src.Subscribers), limit/sizesDen)
	}
	return windows, limit, sizes
}

// faultIndexBound is faultIndexMemory for every source of at most
// src.Subscribers subscribers, src's periods and faults: a smaller source
// is cut into no more windows, its index is within the budget's share,
// holds no more buckets and no more draws, and its sizes are no more.
func faultIndexBound(src model.Source, jobs int) (windows, each, sizes int64) {
	w, share := faultWindows(src, jobs, indexBudget)
	if w == 0 {
		return 0, 0, 0
	}
	if w > 1 {
		sizes = min(src.FaultSizesBytes(0, src.Subscribers), share/sizesDen)
	}
	return int64(w), min(share, src.FaultIndexBytes(0, src.Subscribers)/fillNum*fillDen+fillDen), sizes
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
	sizes *sharedSizes      // of the windows sized together, if any; nil once the last task ended
}

// sharedSizes are the sizes of the buckets of a source's windows, sized
// together: each sequence drawn by one of the first two tasks of the
// windows to start, so that a second goroutine draws rather than waits.
type sharedSizes struct {
	sizes    *model.FaultSizes
	arrivals atomic.Int64
	sized    [2]sync.Once
}

// size sizes both sequences on first use, and waits until they are.
func (z *sharedSizes) size() {
	sizes := [2]func(){z.sizes.SizeMissing, z.sizes.SizeDuplicates}
	first := int(z.arrivals.Add(1)-1) % 2
	for _, k := range [2]int{first, 1 - first} {
		z.sized[k].Do(sizes[k])
	}
}

// count counts subscribers lo..hi-1 of the window into t through the
// window's index, drawing its sequences on first use, or by redrawing if
// the index was refused; it drops the index after the window's last task.
func (f *sharedFaults) count(t *model.Tally, lo, hi int) {
	index, sizes := f.index, f.sizes
	draws := [2]func(int64) bool{index.DrawMissing, index.DrawDuplicates}
	first := int(f.arrivals.Add(1)-1) % 2
	for _, k := range [2]int{first, 1 - first} {
		f.drawn[k].once.Do(func() {
			if sizes != nil {
				sizes.size()
			}
			f.drawn[k].ok = draws[k](f.limit)
		})
	}
	if f.drawn[0].ok && f.drawn[1].ok {
		index.Count(t, lo, hi)
	} else {
		f.src.Count(t, lo, hi)
	}
	if f.left.Add(-1) == 0 { // every task of the window has read it
		index.Drop()
		f.index, f.sizes = nil, nil
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
	// The windows indexed: all but a last one of too few tasks.
	indexed := p.Lo
	if limit > 0 {
		for wlo := p.Lo; wlo < p.Hi; wlo += window {
			if whi := min(wlo+window, p.Hi); (whi-wlo+size-1)/size >= minIndexedTasks {
				indexed = whi
			}
		}
	}
	var sizes *sharedSizes
	if indexed-p.Lo > window && src.FaultSizesBytes(p.Lo, indexed) <= limit/sizesDen {
		sizes = &sharedSizes{sizes: src.NewFaultSizes(p.Lo, indexed)}
	}
	// The windows' indexes, one after another, fill the memory of those
	// before them.
	buffers := new(model.FaultBuffers)
	for wlo := p.Lo; wlo < p.Hi; wlo += window {
		whi := min(wlo+window, p.Hi)
		var f *sharedFaults
		switch {
		case whi > indexed:
		case sizes != nil:
			f = &sharedFaults{src: src, lo: wlo, hi: whi, limit: limit, index: sizes.sizes.Index(wlo, whi), sizes: sizes}
		default:
			f = &sharedFaults{src: src, lo: wlo, hi: whi, limit: limit, index: src.NewFaultIndex(wlo, whi)}
		}
		if f != nil {
			f.index.UseBuffers(buffers)
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
