-- Appended to every bench script: one machine-readable line at the end of a wrk run.
function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      'BENCH_JSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, ' ..
      '"non2xx": %d, "socket_errors": %d}\n',
      summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
      e.status, e.connect + e.read + e.write + e.timeout))
end
