# The lesson's three code blocks ("State in Stream Engines"), verbatim but
# for the number of subscribers, 200 in the lesson, which is N here:
#   python3 bench/lesson.py 5000
# The baseline ckptlab is timed against (bench/run.sh). It prints the
# lesson's tables for N subscribers.
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200

# FICTIONAL. Meter readings of the measurement network, the first three stages of the pipeline and
# the streaming job are generated within the lesson; no stream engine , cluster manager
# or state store is called. Seed 20260218.
SEED, M32 = 20260218, 0xFFFFFFFF


def rng(t):
    x = ((t ^ (t >> 16)) * 2246822507) & M32
    x = ((x ^ (x >> 13)) * 3266489909) & M32
    s = [(x ^ (x >> 16)) & M32]

    def next_value():
        s[0] = (s[0] * 1664525 + 1013904223) & M32
        return s[0] / 4294967296
    return next_value


REGION = ["dogu", "bati", "kuzey", "guney", "merkez"]
TYPE = ["residential", "commercial"]
PERIODS = [f"2026-{a:02d}" for a in range(1, 13)]
SUBSCRIBERS = {}
for i in range(N):
    r = rng(SEED + 37 * i)
    SUBSCRIBERS[f"A{i + 1:03d}"] = {"region": REGION[int(r() * 5)], "type": TYPE[int(r() * 2)],
                                    "start": 10000 + int(r() * 60000)}


def generate_source():
    records = []
    for i, (sub, a) in enumerate(SUBSCRIBERS.items()):
        e = a["start"]
        for p in PERIODS:
            r = rng(SEED + 101 * i + 7 * PERIODS.index(p))
            e += 4 + int(r() * 46)
            records.append({"subscriber": sub, "period": p, "region": a["region"], "type": a["type"],
                            "index": e, "unit": "m3"})
    return records


def s1_screen(records):
    REQUIRED = ("subscriber", "period", "region", "index", "unit")
    keep = [k for k in records if all(a in k for a in REQUIRED)]
    return keep, len(records) - len(keep)


def s2_dedupe(records):
    seen, keep = set(), []
    for k in records:
        key = (k["subscriber"], k["period"])
        if key in seen:
            continue
        seen.add(key)
        keep.append(k)
    return keep, len(records) - len(keep)


def s3_consumption(records):
    table = {(k["subscriber"], k["period"]): k for k in records}
    out, dropped = [], 0
    for k in records:
        i = PERIODS.index(k["period"])
        if i == 0:
            continue
        prev = table.get((k["subscriber"], PERIODS[i - 1]))
        if prev is None:
            dropped += 1
            continue
        out.append(dict(k, m3=int(k["index"]) - int(prev["index"])))
    return out, dropped


WORKERS, NETWORK_COST, TASK_OVERHEAD, STATE_ROWS = 4, 3, 50, 200


def rows():
    v, _ = s1_screen(generate_source())
    v, _ = s2_dedupe(v)
    v, _ = s3_consumption(v)
    return v


def recovery(records, checkpoint_interval, failed_period="2026-09", workers=WORKERS):
    """Without a checkpoint , from the start; with one , from the last point."""
    i = PERIODS.index(failed_period)
    if checkpoint_interval is None:
        recomputed = sum(1 for k in records if PERIODS.index(k["period"]) <= i)
        return {"checkpoints": 0, "recomputed": recomputed}
    last = (i // checkpoint_interval) * checkpoint_interval
    recomputed = sum(1 for k in records
                     if last < PERIODS.index(k["period"]) <= i)
    return {"checkpoints": len(PERIODS) // checkpoint_interval, "recomputed": recomputed}


STREAM = rows()
print(f"stream job {len(STREAM)} rows , failure 2026-09")
print("interval  checkpoints  recomputed rows")
for a in (None, 6, 3, 1):
    s = recovery(STREAM, a)
    print(f"{str(a):>8}  {s['checkpoints']:>11}  {s['recomputed']:>15}")


# This block continues the definitions of STREAM, PERIODS, STATE_ROWS and recovery from the first block.
INTERVALS = (None, 6, 4, 3, 2, 1)
print("failure  " + "  ".join(f"{str(a):>5}" for a in INTERVALS))
for d in PERIODS[1:]:
    print(f"{d}  " + "  ".join(f"{recovery(STREAM, a, d)['recomputed']:>5}" for a in INTERVALS))
print("\ninterval  checkpoints  certain cost  worst  worst total  average  average total")
for a in INTERVALS:
    y = [recovery(STREAM, a, d)["recomputed"] for d in PERIODS[1:]]
    k = recovery(STREAM, a)["checkpoints"] * STATE_ROWS
    o = sum(y) / len(y)
    print(f"{str(a):>8}  {recovery(STREAM, a)['checkpoints']:>11}  {k:>12}  {max(y):>5}"
          f"  {max(y) + k:>11}  {round(o, 1):>7}  {round(o + k, 1):>13}")


# This block continues the definitions of STREAM, PERIODS, WORKERS, STATE_ROWS, INTERVALS and
# recovery from the first two blocks.
def trace_id(m):
    h = 2166136261
    for c in str(m):
        h = ((h ^ ord(c)) * 16777619) & 0xFFFFFFFF
    return h


def distribute(records, key, workers=WORKERS):
    buckets = {i: [] for i in range(workers)}
    for k in records:
        buckets[trace_id(k[key]) % workers].append(k)
    return buckets


print("failure probability  " + "  ".join(f"{str(a):>6}" for a in INTERVALS) + "   best")
for p in (1.0, 0.75, 0.5, 0.25):
    s = []
    for a in INTERVALS:
        y = [recovery(STREAM, a, d)["recomputed"] for d in PERIODS[1:]]
        s.append(p * sum(y) / len(y) + recovery(STREAM, a)["checkpoints"] * STATE_ROWS)
    print(f"{p:>19}  " + "  ".join(f"{round(v, 1):>6}" for v in s)
          + f"   {str(INTERVALS[s.index(min(s))]):>6}")

BUCKETS = distribute(STREAM, "subscriber")
print("\ninterval  whole job from scratch  busiest worker with partitioned state  exactly-once state")
for a in (None, 6, 3, 1):
    g = recovery(STREAM, a)["recomputed"]
    per = max(recovery(BUCKETS[i], a)["recomputed"] for i in range(WORKERS))
    print(f"{str(a):>8}  {g:>22}  {per:>37}  {g:>18}")
