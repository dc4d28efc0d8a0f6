# The lesson's Python blocks ("State in Stream Engines"), generalized as the model
# (docs/design.md#the-model) says: N subscribers, P periods from a start month, and the missing/duplicates
# faults. Used only to produce the reference values typed into model tests;
# the Go tests never run it. Usage: python3 reference.py
M32 = 0xFFFFFFFF


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


def periods(start_year, start_month, p):
    out = []
    for j in range(p):
        m = start_year * 12 + start_month - 1 + j
        out.append(f"{m // 12:04d}-{m % 12 + 1:02d}")
    return out


def generate_source(seed, n, plabels, missing=0, duplicates=0):
    subs = {}
    for i in range(n):
        r = rng(seed + 37 * i)
        subs[f"A{i + 1:03d}"] = {"region": REGION[int(r() * 5)], "type": TYPE[int(r() * 2)],
                                 "start": 10000 + int(r() * 60000)}
    records = []
    for i, (sub, a) in enumerate(subs.items()):
        e = a["start"]
        for j, p in enumerate(plabels):
            r = rng(seed + 101 * i + 7 * j)
            e += 4 + int(r() * 46)
            records.append({"subscriber": sub, "period": p, "region": a["region"], "type": a["type"],
                            "index": e, "unit": "m3"})
    total = len(records)
    r = rng(seed + 104729)
    for _ in range(missing):
        records[int(r() * total)].pop("index", None)
    r = rng(seed + 7919)
    count = {}
    for _ in range(duplicates):
        g = int(r() * total)
        count[g] = count.get(g, 0) + 1
    out = []
    for g, k in enumerate(records):
        out.append(k)
        for _ in range(count.get(g, 0)):
            out.append(dict(k))
    return out


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


def s3_consumption(records, plabels):
    table = {(k["subscriber"], k["period"]): k for k in records}
    out, dropped = [], 0
    for k in records:
        i = plabels.index(k["period"])
        if i == 0:
            continue
        prev = table.get((k["subscriber"], plabels[i - 1]))
        if prev is None:
            dropped += 1
            continue
        out.append(dict(k, m3=int(k["index"]) - int(prev["index"])))
    return out, dropped


def trace_id(m):
    h = 2166136261
    for c in str(m):
        h = ((h ^ ord(c)) * 16777619) & 0xFFFFFFFF
    return h


def pipeline(seed, n, plabels, missing=0, duplicates=0):
    v = generate_source(seed, n, plabels, missing, duplicates)
    v, a = s1_screen(v)
    v, b = s2_dedupe(v)
    v, c = s3_consumption(v, plabels)
    return v, (a, b, c)


def recovered(records, plabels, interval, f):
    i = plabels.index(f)
    last = -1 if interval is None else (i // interval) * interval
    return sum(1 for k in records if last < plabels.index(k["period"]) <= i)


if __name__ == "__main__":
    L = periods(2026, 1, 12)
    src = generate_source(20260218, 1001, L)
    print("records (subscriber, period, region, type, index):")
    for i, j in ((0, 0), (0, 11), (1, 5), (199, 11), (999, 3), (1000, 0)):
        k = src[i * 12 + j]
        print(k["subscriber"], k["period"], k["region"], k["type"], k["index"])
    L2 = periods(2025, 11, 14)
    print("faults: seed 7, 30 subscribers, 2025-11 x 14, missing 25, duplicates 40")
    rows, drops = pipeline(7, 30, L2, 25, 40)
    print("rows", len(rows), "drops", drops, "m3 sum", sum(k["m3"] for k in rows))
    print("per period", [sum(1 for k in rows if k["period"] == p) for p in L2])
    for key, w in (("subscriber", 4), ("region", 3), ("type", 2), ("subscriber", 7)):
        per = [0] * w
        for k in rows:
            per[trace_id(k[key]) % w] += 1
        busiest = {a: max(recovered([k for k in rows if trace_id(k[key]) % w == b], L2, a, "2026-09")
                          for b in range(w)) for a in (None, 5, 3, 1)}
        print("partition", key, w, "rows per worker", per, "busiest at 2026-09", busiest)
