package io.fluxdrm.showcase.timeline;

import io.fluxdrm.rset.ResourceSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The timeline being read: rows by name, each job's open intervals, the closed ones and the marks,
 * with times in nanoseconds since the epoch. {@link #SINCE_START} stands for "held since before the
 * first line", resolved to the left edge when the timeline is built.
 */
final class Board {
  /** The start of an interval that began before the transcript. */
  static final long SINCE_START = Long.MIN_VALUE;

  /** An open interval: where it started and whether that is the left edge. */
  private record Open(long from) {}

  private record BarRec(String row, String job, long from, long to, Timeline.Phase phase) {}

  /**
   * A mark; {@code dvm} when the DVM's traffic told it, with {@code since} the time of the request
   * it answers (a Flux grant or denial read in that window is the same event).
   */
  private record MarkRec(
      String row,
      long at,
      Timeline.MarkKind kind,
      String job,
      String text,
      boolean dvm,
      long since) {}

  private record WaitRec(String job, long from, long to, String text) {}

  private static final class JobState {
    final Timeline.Job job;
    final Map<String, Open> held = new LinkedHashMap<>();
    final Map<String, Open> releasing = new LinkedHashMap<>();

    JobState(Timeline.Job job) {
      this.job = job;
    }
  }

  private final Map<String, Integer> rows = new LinkedHashMap<>();
  private final Map<String, JobState> jobs = new LinkedHashMap<>();
  private final Map<String, Open> daemons = new HashMap<>();
  private final List<BarRec> bars = new ArrayList<>();
  private final List<MarkRec> marks = new ArrayList<>();
  private final List<WaitRec> waits = new ArrayList<>();
  private long first = Long.MAX_VALUE;
  private long last = Long.MIN_VALUE;
  private long earliest = Long.MAX_VALUE;
  private int unattributed;

  static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  /** A line was read at {@code at}: the timeline spans it. */
  void saw(long at) {
    first = Math.min(first, at);
    last = Math.max(last, at);
  }

  /**
   * The timeline starts no later than {@code at}, read or not: its left edge, the zero of the
   * picture's axis, when nothing read is earlier.
   */
  void origin(long at) {
    first = Math.min(first, at);
    last = Math.max(last, at);
  }

  /** The time of the first line read, or {@code fallback} before any. */
  long first(long fallback) {
    return first == Long.MAX_VALUE ? fallback : first;
  }

  /**
   * The start of a job's R as the start of its interval, when plausible: within an hour before
   * {@code at} (a replayed world's clock is not the transcript's); otherwise the left edge.
   */
  long startOf(ResourceSet r, long at) {
    double s = r.starttime();
    if (s <= 0 || Double.isNaN(s)) {
      return SINCE_START;
    }
    long t = (long) (s * 1e9);
    if (t > at || at - t > 3_600_000_000_000L) {
      return SINCE_START;
    }
    earliest = Math.min(earliest, t);
    return t;
  }

  void unattributed() {
    unattributed++;
  }

  /** The rows of {@code r} (host names, or {@code rank N}), registering them with their ranks. */
  List<String> rows(ResourceSet r) {
    List<String> out = new ArrayList<>();
    for (int rank : r.ranks()) {
      String h = r.host(rank);
      String name = h == null ? "rank " + rank : h;
      Integer known = rows.get(name);
      if (known == null || known < 0) {
        rows.put(name, rank);
      }
      out.add(name);
    }
    return out;
  }

  /** Registers rows known by name only. */
  List<String> rows(Collection<String> names) {
    for (String n : names) {
      rows.putIfAbsent(n, -1);
    }
    return List.copyOf(names);
  }

  /** The job, created on first sight. */
  private JobState job(String key, String label, Timeline.Source source) {
    return jobs.computeIfAbsent(key, k -> new JobState(new Timeline.Job(k, label, source)));
  }

  void declare(String key, String label, Timeline.Source source) {
    job(key, label, source);
  }

  boolean knows(String key) {
    return jobs.containsKey(key);
  }

  /** The rows a job holds or is releasing now. */
  List<String> holding(String key) {
    JobState j = jobs.get(key);
    if (j == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>(j.held.keySet());
    out.addAll(j.releasing.keySet());
    return out;
  }

  /** The rows a job holds now (not those it is releasing). */
  List<String> held(String key) {
    JobState j = jobs.get(key);
    return j == null ? List.of() : List.copyOf(j.held.keySet());
  }

  /** The job holds these rows from {@code from} on (rows it holds already are left alone). */
  void hold(String key, String label, Timeline.Source source, List<String> rs, long from) {
    JobState j = job(key, label, source);
    for (String r : rs) {
      if (!j.held.containsKey(r) && !j.releasing.containsKey(r)) {
        j.held.put(r, new Open(from));
      }
    }
  }

  /** A shrink took these rows: the job holds them, releasing, until it frees them. */
  void releasing(String key, List<String> rs, long at) {
    JobState j = jobs.get(key);
    if (j == null) {
      return;
    }
    for (String r : rs) {
      Open o = j.held.remove(r);
      if (o != null) {
        close(r, key, o.from(), at, Timeline.Phase.HELD);
      } else if (j.releasing.containsKey(r)) {
        continue;
      } else {
        close(r, key, SINCE_START, at, Timeline.Phase.HELD);
      }
      j.releasing.put(r, new Open(at));
    }
  }

  /**
   * The job freed these rows at {@code at}; rows it was not known to hold were held since start.
   */
  void free(String key, String label, Timeline.Source source, List<String> rs, long at) {
    JobState j = job(key, label, source);
    for (String r : rs) {
      Open h = j.held.remove(r);
      Open x = j.releasing.remove(r);
      if (h != null) {
        close(r, key, h.from(), at, Timeline.Phase.HELD);
      }
      if (x != null) {
        close(r, key, x.from(), at, Timeline.Phase.RELEASING);
      }
      if (h == null && x == null) {
        close(r, key, SINCE_START, at, Timeline.Phase.HELD);
      }
    }
  }

  private void close(String row, String job, long from, long to, Timeline.Phase phase) {
    bars.add(new BarRec(row, job, from, to, phase));
  }

  /** A daemon starts on the row (a no-op when one runs there already). */
  void daemonStart(String row, long at) {
    started.add(row);
    if (daemons.putIfAbsent(row, new Open(at)) == null) {
      mark(row, at, Timeline.MarkKind.DAEMON_START, null, "");
    }
  }

  /** The rows a daemon was seen starting on. */
  private final java.util.Set<String> started = new java.util.HashSet<>();

  /** Whether a daemon was seen starting on the row and has not left. */
  boolean daemonRunning(String row) {
    return daemons.containsKey(row);
  }

  /** The daemon of the row left (one that was never seen starting ran since the start). */
  void daemonLeft(String row, long at, Timeline.MarkKind kind, String text) {
    Open o = daemons.remove(row);
    if (o == null && started.contains(row)) {
      // its leaving is drawn already (the release hook came first); a rollback still gets its mark
      if (kind != Timeline.MarkKind.DAEMON_LEFT) {
        mark(row, at, kind, null, text);
      }
      return;
    }
    close(row, null, o == null ? SINCE_START : o.from(), at, Timeline.Phase.DAEMON);
    mark(row, at, kind, null, text);
  }

  void mark(String row, long at, Timeline.MarkKind kind, String job, String text) {
    marks.add(new MarkRec(row, at, kind, job, text, false, at));
  }

  /**
   * A grow, shrink or denial the DVM answered at {@code at} to a request sent at {@code since}:
   * when the Flux traffic read shows the same grant or denial in that window (the DVM's scheduler
   * asked Flux), the timeline keeps the Flux mark only.
   */
  void dvmMark(String row, long since, long at, Timeline.MarkKind kind, String job, String text) {
    marks.add(new MarkRec(row, at, kind, job, text, true, since));
  }

  /**
   * The marks but those the DVM told of an event a Flux mark shows already: a grant's ▲ or ▼ on the
   * same row, a denial, each Flux mark standing for one DVM mark at most.
   */
  private List<MarkRec> once() {
    List<MarkRec> out = new ArrayList<>();
    java.util.Set<MarkRec> paired =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (MarkRec m : marks) {
      if (m.dvm()) {
        MarkRec same =
            marks.stream()
                .filter(
                    f ->
                        !f.dvm()
                            && f.kind() == m.kind()
                            && java.util.Objects.equals(f.row(), m.row())
                            && f.job() != null
                            && jobs.get(f.job()).job.source() == Timeline.Source.FLUX
                            && f.at() >= m.since()
                            && f.at() <= m.at()
                            && !paired.contains(f))
                .findFirst()
                .orElse(null);
        if (same != null) {
          paired.add(same);
          continue;
        }
      }
      out.add(m);
    }
    return out;
  }

  void waited(String job, long from, long to, String text) {
    waits.add(new WaitRec(job, from, to, text));
  }

  /**
   * The timeline as read so far; open intervals end at {@code end} (the last line's time when
   * {@code end} is {@link Long#MIN_VALUE}). When Flux jobs held nodes, DVM reservations are shown
   * by their daemons only: the Flux job's bar is the allocation.
   */
  Timeline build(long end, long fallbackStart) {
    long start = Math.min(first(fallbackStart), earliest);
    long stop = Math.max(end == Long.MIN_VALUE ? last : end, start + 1);
    if (last == Long.MIN_VALUE && end == Long.MIN_VALUE) {
      stop = start + 1;
    }
    List<BarRec> all = new ArrayList<>(bars);
    for (JobState j : jobs.values()) {
      for (Map.Entry<String, Open> e : j.held.entrySet()) {
        all.add(
            new BarRec(e.getKey(), j.job.key(), e.getValue().from(), stop, Timeline.Phase.HELD));
      }
      for (Map.Entry<String, Open> e : j.releasing.entrySet()) {
        all.add(
            new BarRec(
                e.getKey(), j.job.key(), e.getValue().from(), stop, Timeline.Phase.RELEASING));
      }
    }
    for (Map.Entry<String, Open> e : daemons.entrySet()) {
      all.add(new BarRec(e.getKey(), null, e.getValue().from(), stop, Timeline.Phase.DAEMON));
    }
    boolean flux =
        all.stream()
            .anyMatch(
                b -> b.job() != null && jobs.get(b.job()).job.source() == Timeline.Source.FLUX);
    if (flux) {
      all.removeIf(b -> b.job() != null && jobs.get(b.job()).job.source() == Timeline.Source.DVM);
    }
    // rows: by rank, then the ones known by name only, in natural order
    List<Map.Entry<String, Integer>> rowList = new ArrayList<>(rows.entrySet());
    rowList.sort(
        Comparator.<Map.Entry<String, Integer>>comparingInt(
                e -> e.getValue() < 0 ? Integer.MAX_VALUE : e.getValue())
            .thenComparing(Map.Entry::getKey, Board::natural));
    Map<String, Integer> rowIndex = new HashMap<>();
    List<Timeline.Row> outRows = new ArrayList<>();
    for (Map.Entry<String, Integer> e : rowList) {
      rowIndex.put(e.getKey(), outRows.size());
      outRows.add(new Timeline.Row(e.getKey(), e.getValue()));
    }
    Map<String, Integer> jobIndex = new HashMap<>();
    List<Timeline.Job> outJobs = new ArrayList<>();
    java.util.Set<String> withBars = new java.util.HashSet<>();
    for (BarRec b : all) {
      if (b.job() != null) {
        withBars.add(b.job());
      }
    }
    for (JobState j : jobs.values()) {
      if (withBars.contains(j.job.key())) {
        jobIndex.put(j.job.key(), outJobs.size());
        outJobs.add(j.job);
      }
    }
    List<Timeline.Bar> outBars = new ArrayList<>();
    for (BarRec b : all) {
      long from = b.from() == SINCE_START ? start : Math.max(b.from(), start);
      long to = Math.min(Math.max(b.to(), from), stop);
      outBars.add(
          new Timeline.Bar(
              rowIndex.get(b.row()),
              b.job() == null ? -1 : jobIndex.get(b.job()),
              from - start,
              to - start,
              b.phase(),
              b.from() == SINCE_START));
    }
    outBars.sort(
        Comparator.comparingInt(Timeline.Bar::row)
            .thenComparingLong(Timeline.Bar::from)
            .thenComparingInt(Timeline.Bar::job));
    List<Timeline.Mark> outMarks = new ArrayList<>();
    for (MarkRec m : once()) {
      outMarks.add(
          new Timeline.Mark(
              m.row() == null ? -1 : rowIndex.get(m.row()),
              clamp(m.at(), start, stop) - start,
              m.kind(),
              m.job() == null ? -1 : jobIndex.getOrDefault(m.job(), -1),
              m.text()));
    }
    outMarks.sort(Comparator.comparingLong(Timeline.Mark::at));
    List<Timeline.Wait> outWaits = new ArrayList<>();
    for (WaitRec w : waits) {
      outWaits.add(
          new Timeline.Wait(
              w.job() == null ? -1 : jobIndex.getOrDefault(w.job(), -1),
              clamp(w.from(), start, stop) - start,
              clamp(w.to(), start, stop) - start,
              w.text()));
    }
    Instant t0 =
        Instant.ofEpochSecond(
            Math.floorDiv(start, 1_000_000_000L), Math.floorMod(start, 1_000_000_000L));
    return new Timeline(
        t0, stop - start, outRows, outJobs, outBars, outMarks, outWaits, unattributed);
  }

  private static long clamp(long v, long lo, long hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  /** Compares names so that {@code node2} comes before {@code node10}. */
  static int natural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (Character.isDigit(ca) && Character.isDigit(cb)) {
        int si = i;
        int sj = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
        String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
        int c =
            na.length() != nb.length()
                ? Integer.compare(na.length(), nb.length())
                : na.compareTo(nb);
        if (c != 0) {
          return c;
        }
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
