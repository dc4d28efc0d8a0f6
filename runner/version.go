package runner

// Version is the version of ckptlab. Results record it, so that a table can
// be traced to the code that made it.
const Version = "0.1.0"
