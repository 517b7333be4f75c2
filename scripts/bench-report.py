#!/usr/bin/env python3
"""The report of `make bench`: every figure in one JSON file, a table on stdout and
a chart drawn by gnuplot.

  bench-report.py WORK OUT_DIR
  bench-report.py RESULTS.json OUT_DIR     (the table and chart again from a run's results)

WORK is bench.sh's work directory: hyperfine's JSON exports and the result files of
the measurements it ran itself, and WORK/results/*.json, each written by a script of
its own (scripts/bench-*.sh) as {"rows": [ROW, ...]}. A ROW:

  {"key": "send_lines", "label": "...", "value": 21000, "unit": "msg/s",
   "target": ">= 20000", "ok": true,
   "baseline": {"label": "...", "value": 30000, "unit": "msg/s"},   # optional
   "detail": {...}}                                                 # optional

Rows whose key starts with "sandbox_scale_" and whose detail names "users" are the
points of the sandbox's scale curve (scripts/bench-scale.sh): the value is deliveries
routed a second, the detail has "latency_p99_ms" and "rss_per_connection_kb".

Writes OUT_DIR/results.json (the rows, with when, where and which commit) and
OUT_DIR/bench.png (latency and throughput beside their baselines, and the scale
curve). Asserts nothing: timings are not tests.
"""
import datetime
import glob
import json
import os
import platform
import shutil
import subprocess
import sys


def hyperfine(work, name):
    """mean, sd, min, max (ms) and runs of one hyperfine export, or None."""
    path = os.path.join(work, name + ".json")
    if not os.path.exists(path):
        return None
    result = json.load(open(path))["results"][0]
    return {"mean_ms": result["mean"] * 1000, "sd_ms": result["stddev"] * 1000, "min_ms": result["min"] * 1000,
            "max_ms": result["max"] * 1000, "runs": len(result["times"])}


def read_words(work, name):
    path = os.path.join(work, name)
    return open(path).read().split() if os.path.exists(path) else None


def timed_row(work, key, label, baseline_key, baseline_label, limit_ms):
    """A row from two hyperfine exports: KEY beside BASELINE_KEY, target under LIMIT_MS."""
    stats, base = hyperfine(work, key), hyperfine(work, baseline_key)
    if stats is None:
        return None
    row = {"key": key, "label": label, "value": round(stats["mean_ms"], 2), "unit": "ms", "target": f"< {limit_ms:g} ms",
           "ok": stats["mean_ms"] < limit_ms, "detail": stats}
    if base is not None:
        row["baseline"] = {"label": baseline_label, "value": round(base["mean_ms"], 2), "unit": "ms", "detail": base}
    return row


def core_rows(work):
    """The rows bench.sh measures itself."""
    rows = [
        timed_row(work, "chat_first", "chatctl chat, start to first full screen (one dialog, 1,000,000 cached, avatars on)",
                  "chat_first_baseline", "chatctl history --offline --limit 50, same dialog", 50),
    ]
    latency = hyperfine(work, "chat_latency")
    if latency:
        rows.append({"key": "chat_keystroke", "label": "chatctl chat, keystroke to screen while 100 messages/s arrive (avatars on)",
                     "value": round(latency["mean_ms"], 2), "unit": "ms", "target": "< 16 ms", "ok": latency["mean_ms"] < 16,
                     "detail": latency})
    words = read_words(work, "chat.rss")
    if words:
        half, end, paged = (int(x) for x in words)
        rows.append({"key": "chat_rss", "label": f"chatctl chat resident memory after paging back through {paged:,} messages (avatars on)",
                     "value": round(end / 1024, 1), "unit": "MB", "target": "< 40 MB, flat", "ok": end / 1024 < 40,
                     "detail": {"halfway_mb": round(half / 1024, 1), "messages": paged}})
    words = read_words(work, "renew.result")
    if words:
        refreshes, renewed, sent, heard, start, end = (int(x) for x in words)
        rows.append({"key": "listen_refreshes", "label": "chatctl listen across session refreshes (--token-ttl 2), messages missed",
                     "value": sent - heard, "unit": "missed", "target": "0 missed, >= 1000 refreshes",
                     "ok": sent == heard and refreshes >= 1000,
                     "detail": {"refreshes": refreshes, "new_sessions": renewed, "sent": sent, "heard": heard,
                                "rss_start_mb": round(start / 1024, 1), "rss_end_mb": round(end / 1024, 1)}})
    words = read_words(work, "transfers.result")
    if words:
        mib, up, up_rss, curl_up, down, down_rss, curl_down, sandbox_hwm = words
        mb = int(mib) * 1048576 / 1e6
        for key, label, secs, rss, base_label, base in [
                ("upload", f"chatctl send --attach of {mib} MiB on loopback", up, up_rss, "curl, the same multipart POST", curl_up),
                ("download", f"chatctl download of {mib} MiB on loopback", down, down_rss, "curl, the same GET of the storage URL", curl_down)]:
            rate, base_rate = mb / float(secs), mb / float(base)
            rows.append({"key": key, "label": label, "value": round(rate), "unit": "MB/s", "target": ">= 0.8x curl, < 50 MB",
                         "ok": rate >= 0.8 * base_rate and int(rss) / 1024 < 50,
                         "baseline": {"label": base_label, "value": round(base_rate), "unit": "MB/s"},
                         "detail": {"peak_rss_mb": round(int(rss) / 1024, 1)}})
        rows.append({"key": "transfers_sandbox_rss", "label": "chatctl-sandbox peak resident memory through both transfers",
                     "value": round(int(sandbox_hwm) / 1024, 1), "unit": "MB", "target": "< 50 MB",
                     "ok": int(sandbox_hwm) / 1024 < 50})
    return [row for row in rows if row is not None]


def script_rows(work):
    rows = []
    for path in sorted(glob.glob(os.path.join(work, "results", "*.json"))):
        rows += json.load(open(path))["rows"]
    return rows


def number(value):
    if isinstance(value, float) and value < 100:
        return f"{value:.2f}"
    return f"{value:,.0f}" if isinstance(value, (int, float)) else str(value)


def print_table(rows):
    print(f"{'measurement':<70} {'value':>12} {'unit':<7} {'target':<22} verdict")
    for row in rows:
        verdict = "ok" if row.get("ok") else "MISSED" if row.get("ok") is False else ""
        print(f"{row['label'][:70]:<70} {number(row['value']):>12} {row['unit']:<7} {row.get('target', ''):<22} {verdict}")
        base = row.get("baseline")
        if base:
            ratio = row["value"] / base["value"] if base["value"] else float("nan")
            print(f"{'  baseline: ' + base['label']:<70} {number(base['value']):>12} {base['unit']:<7} ratio {ratio:.2f}x")


def is_scale(row):
    return row["key"].startswith("sandbox_scale_") and row["unit"] == "msg/s" and "users" in row.get("detail", {})


def short(label, limit=34):
    label = label.replace("chatctl ", "")
    return label if len(label) <= limit else label[:limit - 1] + "…"


def draw(rows, out_dir):
    """OUT_DIR/bench.png: latency (ms) and throughput (msg/s) beside their baselines,
    and the scale curve; nothing when gnuplot is missing."""
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        print("bench: gnuplot is not installed, no chart drawn", file=sys.stderr)
        return
    data = os.path.join(out_dir, ".chart")
    os.makedirs(data, exist_ok=True)
    panels = []
    for unit, name, title in [("ms", "latency", "Latency (ms, lower is better)"),
                              ("msg/s", "throughput", "Throughput (messages/s, higher is better)")]:
        chosen = [row for row in rows if row["unit"] == unit and not is_scale(row)]
        if not chosen:
            continue
        with open(os.path.join(data, name + ".dat"), "w") as out:
            for row in chosen:
                base = row.get("baseline", {}).get("value", 0) if row.get("baseline", {}).get("unit") == unit else 0
                out.write(f"\"{short(row['label'])}\" {row['value']} {base}\n")
        top = max(max(row["value"], row.get("baseline", {}).get("value", 0) or 0) for row in chosen)
        panels.append((name, title, top))
    scale = sorted(({"users": row["detail"]["users"], "routed": row["value"], "p99": row["detail"].get("latency_p99_ms", 0)}
                    for row in rows if is_scale(row)), key=lambda point: point["users"])
    if scale:
        with open(os.path.join(data, "scale.dat"), "w") as out:
            for point in scale:
                out.write(f"{point['users']} {point['routed']} {point['p99']}\n")
    if not panels and not scale:
        return
    count = len(panels) + (1 if scale else 0)
    script = [f"set terminal pngcairo size {640 * count},520 font 'DejaVu Sans,10'",
              f"set output '{os.path.join(out_dir, 'bench.png')}'",
              f"set multiplot layout 1,{count}",
              "set style data histograms", "set style histogram clustered gap 1", "set style fill solid 0.85 border -1",
              "set boxwidth 0.9", "set xtics rotate by -35 left nomirror", "set grid ytics", "set key top right",
              "set bmargin 12"]
    for name, title, top in panels:
        path = os.path.join(data, name + ".dat")
        # Latencies span milliseconds to tens of them: a log scale keeps the short ones visible.
        scale_line = f"set logscale y; set ytics (0.5, 1, 2, 5, 10, 20, 50, 100, 200); set yrange [0.5:{top * 2}]" if name == "latency" else f"unset logscale y; set ytics autofreq; set yrange [0:{top * 1.15}]"
        script += [f"set title '{title}'", scale_line,
                   f"plot '{path}' using 2:xtic(1) title 'chatctl' lc rgb '#2b7bba', '' using 3 title 'baseline' lc rgb '#b0b0b0'"]
    if scale:
        path = os.path.join(data, "scale.dat")
        script += ["set title 'chatctl-sandbox: users connected at once'", "unset style", "set style data linespoints",
                   "set xtics norotate", "set bmargin 4", "unset logscale y", "set logscale x 2",
                   f"set xrange [{scale[0]['users'] * 0.8}:{scale[-1]['users'] * 1.25}]", "set xlabel 'users'",
                   "set ylabel 'messages routed / s'", "set y2label 'p99 delivery latency (ms)'", "set y2tics", "set ytics nomirror",
                   "set yrange [0:*]", "set y2range [0:*]", "set key top left",
                   f"plot '{path}' using 1:2 axes x1y1 title 'routed / s' lw 2 pt 7 lc rgb '#2b7bba', "
                   f"'' using 1:3 axes x1y2 title 'p99 ms' lw 2 pt 5 lc rgb '#d6604d'"]
    script.append("unset multiplot")
    result = subprocess.run([gnuplot], input="\n".join(script) + "\n", text=True, capture_output=True)
    if result.returncode != 0:
        print(f"bench: gnuplot failed: {result.stderr.strip()}", file=sys.stderr)
    shutil.rmtree(data, ignore_errors=True)


def machine():
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "commit": commit}


def main():
    work, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    if work.endswith(".json"):
        # A results.json of an earlier run: the table and the chart again, from its rows.
        rows = json.load(open(work))["rows"]
    else:
        rows = core_rows(work) + script_rows(work)
        report = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "machine": machine(), "rows": rows}
        with open(os.path.join(out_dir, "results.json"), "w") as out:
            json.dump(report, out, indent=1, ensure_ascii=False)
            out.write("\n")
    print_table(rows)
    draw(rows, out_dir)
    print(f"bench: results in {os.path.join(out_dir, 'results.json')}, chart in {os.path.join(out_dir, 'bench.png')}", file=sys.stderr)


if __name__ == "__main__":
    main()
