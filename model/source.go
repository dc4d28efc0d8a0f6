package model

// Regions and Types are the lesson's REGION and TYPE lists, in its order.
// A subscriber's region is drawn as an index into Regions.
var (
	Regions = []string{"dogu", "bati", "kuzey", "guney", "merkez"}
	Types   = []string{"residential", "commercial"}
)

// Source fixes a generated meter-reading source.
// It generalizes the lesson's SUBSCRIBERS and generate_source.
// Its 200 subscribers become Subscribers.
// Its twelve periods become Periods, starting at Start.
// It adds the faults of the model (docs/design.md#the-model).
type Source struct {
	Seed        uint32
	Subscribers int
	Periods     int
	Start       Month
	// Missing and Duplicates are the numbers of fault draws (docs/design.md#the-model).
	Missing    int
	Duplicates int
}

// Label returns the label of period j (0-based), YYYY-MM.
func (s Source) Label(j int) string { return (s.Start + Month(j)).String() }

// missingSeed and duplicatesSeed are the seeds of the source's two fault sequences.
// The model draws its missing records from rng(seed + 104729).
// It draws its duplicates from rng(seed + 7919) (docs/design.md#the-model).
// The reference in reference_faults_test.go keeps the literals.
// It is the independent reading of that note.
func (s Source) missingSeed() uint64    { return uint64(s.Seed) + 104729 }
func (s Source) duplicatesSeed() uint64 { return uint64(s.Seed) + 7919 }
