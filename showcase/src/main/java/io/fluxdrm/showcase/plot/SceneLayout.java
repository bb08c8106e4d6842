package io.fluxdrm.showcase.plot;

import io.fluxdrm.showcase.timeline.Timeline;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lays a {@link Timeline} out as a {@link Picture}: a title and a summary of what happened (each
 * event counted once), a legend of every kind of mark drawn, the lane of requests ({@link
 * LaneLayout}: held, denied, rolled back and cancelled requests and the sessions' events, each with
 * its text), then one row per node (its name on the left, the jobs' bars in their colours with the
 * job id on or next to its widest bar, ▲/▼ where a grant added or took the node, a thin dark strip
 * while a DVM daemon runs there, ▸ when it starts and ◂ when it leaves, ◆ a session's event), and
 * the time axis. Text widths are estimated ({@link TextBox}), so that the SVG and the PNG agree,
 * and every text is placed where it meets no other and stays within the picture (D495).
 *
 * <p>Its parts (decision D541), package-private: {@link LayoutModel} holds the measures and the
 * shapes they share; {@link HeaderLegend} draws the title, the summary and the legend, {@link
 * RequestLane} the lane of requests, {@link RowLayout} the rows, their bars and marks, {@link
 * TimeAxis} the time axis, and {@link MarkShapes} the marks' shapes.
 */
final class SceneLayout {
  static final int DEFAULT_WIDTH = 1200;
  static final int MIN_WIDTH = 480;
  static final int MAX_SIDE = 16_384;

  /** Time stamps as the summary prints them: UTC, to the millisecond. */
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** Before this, a transcript's clock is a test's (it starts at the epoch), not a date. */
  private static final Instant DATED = Instant.parse("2000-01-01T00:00:00Z");

  private final LayoutModel model;
  private final HeaderLegend header;
  private final RequestLane lane;
  private final RowLayout rows;
  private final TimeAxis axis;

  private SceneLayout(Timeline t, String title, int width) {
    this.model = new LayoutModel(t, title, width);
    MarkShapes marks = new MarkShapes(model);
    this.header = new HeaderLegend(model, marks);
    this.lane = new RequestLane(model, marks);
    this.rows = new RowLayout(model, marks);
    this.axis = new TimeAxis(model);
  }

  /**
   * The picture of {@code t}.
   *
   * @param title the title's subject (a file name, "live")
   * @param width the picture's width in pixels
   * @param height the height, or 0 to fit the rows (about 24 px each)
   */
  static Picture picture(Timeline t, String title, int width, int height) {
    return new SceneLayout(t, title, width).layout(height);
  }

  /** The scene of {@link #picture}. */
  static Scene of(Timeline t, String title, int width, int height) {
    return picture(t, title, width, height).scene();
  }

  /** The colour of each job, by index. */
  static List<String> colours(Timeline t) {
    return JobColours.of(t.jobs().size());
  }

  private Picture layout(int height) {
    int n = Math.max(1, model.t.rows().size());
    double longest = 6;
    for (Timeline.Row r : model.t.rows()) {
      longest = Math.max(longest, TextBox.width(r.name(), 12, false));
    }
    model.left = Math.ceil(Math.max(longest, TextBox.width("requests", 11, true)) + 24);
    model.plotW = model.width - model.left - 28;
    Picture.Counts counts = Picture.Counts.of(model.t);
    model.out.add(
        new Scene.Rect(0, 0, model.width, 1, "#ffffff", 1, null, null, "background", null, null));
    List<String> summary = header.summary(counts);
    double y = header.header(summary);
    List<Picture.LegendEntry> legend = header.legendEntries();
    y = header.legend(legend, y + 24);
    model.laneTop = y + 14;
    List<LaneLayout.Item> items = LaneLayout.items(model.t);
    LaneLayout.Plan plan = LaneLayout.plan(items, model::x, model.left, model.width - 4);
    int lanes = Math.max(1, plan.lanes());
    model.rowsTop = model.laneTop + lanes * LaneLayout.LANE_H + 14;
    double bottom = 58;
    if (height > 0) {
      model.rowH = Math.max(2, (height - model.rowsTop - bottom) / n);
    } else {
      model.rowH = n <= 32 ? 24 : Math.max(6, Math.min(24, 760.0 / n));
    }
    int h = height > 0 ? height : (int) Math.ceil(model.rowsTop + n * model.rowH + bottom);
    model.out.set(
        0,
        new Scene.Rect(0, 0, model.width, h, "#ffffff", 1, null, null, "background", null, null));
    lane.lane(plan, lanes);
    rows.rows();
    axis.axis(h);
    Scene scene = new Scene(model.width, h, model.out);
    List<Picture.Label> labels = new ArrayList<>();
    for (Scene.Shape s : model.out) {
      if (s instanceof Scene.Text x) {
        TextBox b = TextBox.of(x);
        labels.add(new Picture.Label(x.text(), x.cls(), b.x(), b.y(), b.w(), b.h()));
      }
    }
    return new Picture(scene, counts, summary, legend, labels, model.drawn);
  }

  /**
   * When the timeline happened: its length and its start to the millisecond, or only its length
   * when its clock is a test's (times from the epoch), or that every line has one time stamp.
   */
  static String when(Timeline t) {
    if (t.span() <= 1) {
      return "every line at one instant (no time passes)";
    }
    if (t.start().isBefore(DATED)) {
      return "over " + duration(t.span()) + ", times from the first line";
    }
    return "over " + duration(t.span()) + " from " + stamp(t.start());
  }

  /** An instant in UTC to the millisecond, rounded: {@code 2026-12-06T13:04:47.181Z}. */
  static String stamp(Instant i) {
    return STAMP.format(i.plusNanos(500_000).truncatedTo(ChronoUnit.MILLIS));
  }

  /** A duration in its unit, three significant digits: {@code 1.16 s}, {@code 350 µs}. */
  static String duration(long ns) {
    long a = Math.abs(ns);
    String unit;
    double v;
    if (a >= 120_000_000_000L) {
      unit = "min";
      v = ns / 60e9;
    } else if (a >= 1_000_000_000L) {
      unit = "s";
      v = ns / 1e9;
    } else if (a >= 1_000_000L) {
      unit = "ms";
      v = ns / 1e6;
    } else if (a >= 1_000L) {
      unit = "µs";
      v = ns / 1e3;
    } else {
      return ns + " ns";
    }
    String f = Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, f, v) + " " + unit;
  }

  /** {@code s}, cut short with "…" to fit {@code room} pixels. */
  static String fit(String s, double room, double size, boolean bold) {
    if (TextBox.width(s, size, bold) <= room) {
      return s;
    }
    for (int len = s.length() - 1; len > 0; len--) {
      String c = s.substring(0, len).strip() + "…";
      if (TextBox.width(c, size, bold) <= room) {
        return c;
      }
    }
    return "";
  }
}
