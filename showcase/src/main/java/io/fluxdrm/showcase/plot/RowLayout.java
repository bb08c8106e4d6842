package io.fluxdrm.showcase.plot;

import static io.fluxdrm.showcase.plot.LayoutModel.DAEMON;
import static io.fluxdrm.showcase.plot.LayoutModel.GROW;
import static io.fluxdrm.showcase.plot.LayoutModel.INK;
import static io.fluxdrm.showcase.plot.LayoutModel.MUTED;
import static io.fluxdrm.showcase.plot.LayoutModel.SESSION;
import static io.fluxdrm.showcase.plot.LayoutModel.SHRINK;
import static io.fluxdrm.showcase.plot.LayoutModel.STRIPE;
import static io.fluxdrm.showcase.plot.MarkShapes.diamond;
import static io.fluxdrm.showcase.plot.MarkShapes.leftTri;
import static io.fluxdrm.showcase.plot.MarkShapes.right;
import static io.fluxdrm.showcase.plot.SceneLayout.duration;

import io.fluxdrm.showcase.timeline.Timeline;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of a {@link SceneLayout}'s picture (decision D541): one per node, its name on the left
 * where it meets no other, the jobs' bars in their colours with the job id on or next to its widest
 * bar, the DVM daemons' strips, and the marks on the rows (▲/▼ grow and shrink, ▸/◂ a daemon
 * starting and leaving, ◆ a session's event, the node of a rolled-back grow).
 */
final class RowLayout {
  private final LayoutModel model;
  private final MarkShapes marks;

  RowLayout(LayoutModel model, MarkShapes marks) {
    this.model = model;
    this.marks = marks;
  }

  // ---- rows ------------------------------------------------------------------------------------

  void rows() {
    List<Timeline.Row> rs = model.t.rows();
    double fs = Math.min(12, Math.max(7, model.rowH * 0.6));
    // a name every k rows, so that their boxes never meet, none above the rows' top (where "node"
    // is written)
    int every = (int) Math.ceil(((TextBox.ASCENT + TextBox.DESCENT) * fs + 1) / model.rowH);
    double nodeY = model.rowsTop - 4;
    model.text(model.left - 8, nodeY, "node", 11, MUTED, Scene.Anchor.END, true, "axis-label");
    int next = 0;
    for (int i = 0; i < rs.size(); i++) {
      double y = model.rowsTop + i * model.rowH;
      if (i % 2 == 1) {
        model.out.add(
            new Scene.Rect(
                model.left,
                y,
                model.plotW,
                model.rowH,
                STRIPE,
                1,
                null,
                null,
                "stripe",
                null,
                null));
      }
      double base = y + model.rowH / 2 + fs * 0.36;
      if (i >= next && base - TextBox.ASCENT * fs >= nodeY + TextBox.DESCENT * 11) {
        model.text(model.left - 8, base, rs.get(i).name(), fs, INK, Scene.Anchor.END, false, "row");
        next = i + every;
      }
    }
    bars();
    rowMarks();
  }

  private void bars() {
    double pad = Math.max(0.5, Math.min(3, model.rowH * 0.12));
    // each job's widest held bar carries its label
    int[] widest = new int[model.t.jobs().size()];
    Arrays.fill(widest, -1);
    List<Timeline.Bar> bs = model.t.bars();
    for (int i = 0; i < bs.size(); i++) {
      Timeline.Bar b = bs.get(i);
      if (b.job() >= 0 && b.phase() == Timeline.Phase.HELD) {
        int w = widest[b.job()];
        if (w < 0 || bs.get(w).to() - bs.get(w).from() < b.to() - b.from()) {
          widest[b.job()] = i;
        }
      }
    }
    for (int pass = 0; pass < 2; pass++) {
      for (Timeline.Bar b : bs) {
        if ((b.phase() == Timeline.Phase.DAEMON) != (pass == 1)) {
          continue;
        }
        bar(b, pad);
      }
    }
    java.util.Set<String> shapes = new java.util.HashSet<>();
    for (Timeline.Bar b : bs) {
      shapes.add(blockKey(b, b.row()));
    }
    double fs = Math.min(12, Math.max(7, model.rowH * 0.55));
    if (model.rowH < (TextBox.ASCENT + TextBox.DESCENT) * fs + 1) {
      // too thin for a label that keeps clear of the next row's
      return;
    }
    boolean[] labelled = new boolean[model.t.jobs().size()];
    for (int i = 0; i < bs.size(); i++) {
      Timeline.Bar b = bs.get(i);
      if (b.job() < 0 || b.phase() != Timeline.Phase.HELD) {
        continue;
      }
      if (!shapes.contains(blockKey(b, b.row() - 1))
          || (i == widest[b.job()] && !labelled[b.job()])) {
        labelled[b.job()] |= label(b, bs, fs, i == widest[b.job()] && !labelled[b.job()]);
      }
    }
    for (int j = 0; j < widest.length; j++) {
      if (widest[j] >= 0 && !labelled[j]) {
        label(bs.get(widest[j]), bs, fs, true);
      }
    }
  }

  /** A bar's job, phase and times on {@code row}: equal keys on adjacent rows form one block. */
  private static String blockKey(Timeline.Bar b, int row) {
    return row + "/" + b.job() + "/" + b.phase() + "/" + b.from() + "/" + b.to();
  }

  /** Writes the job id on the bar, or next to it when {@code outside} and there is room. */
  private boolean label(Timeline.Bar b, List<Timeline.Bar> bs, double fs, boolean outside) {
    String label = model.t.jobs().get(b.job()).label();
    double x0 = model.x(b.from());
    double x1 = model.x(b.to());
    double y = model.rowsTop + b.row() * model.rowH + model.rowH / 2 + fs * 0.36;
    double w = TextBox.width(label, fs, true);
    if (x1 - x0 >= w + 6) {
      model.out.add(
          new Scene.Text(
              (x0 + x1) / 2,
              y,
              label,
              fs,
              JobColours.textOn(model.colours.get(b.job())),
              Scene.Anchor.MIDDLE,
              true,
              false,
              "job-label",
              label));
      model.texts++;
      return true;
    }
    if (outside && freeAfter(b, bs) >= w + 6) {
      model.out.add(
          new Scene.Text(
              x1 + 3, y, label, fs, INK, Scene.Anchor.START, true, true, "job-label", label));
      model.texts++;
      return true;
    }
    return false;
  }

  private void bar(Timeline.Bar b, double pad) {
    double x0 = model.x(b.from());
    double x1 = Math.max(model.x(b.to()), x0 + 1);
    double y = model.rowsTop + b.row() * model.rowH;
    String row = model.t.rows().get(b.row()).name();
    if (b.phase() == Timeline.Phase.DAEMON) {
      double dh = Math.max(1.5, Math.min(4, model.rowH * 0.16));
      model.out.add(
          new Scene.Rect(
              x0,
              y + model.rowH - pad - dh,
              x1 - x0,
              dh,
              DAEMON,
              1,
              null,
              "DVM daemon on " + row + ", " + span(b),
              "daemon",
              null,
              row));
      return;
    }
    String job = model.t.jobs().get(b.job()).label();
    String fill = model.colours.get(b.job());
    boolean rel = b.phase() == Timeline.Phase.RELEASING;
    model.out.add(
        new Scene.Rect(
            x0,
            y + pad,
            x1 - x0,
            model.rowH - 2 * pad,
            fill,
            rel ? 0.35 : 1,
            rel ? fill : null,
            job + " on " + row + (rel ? ", releasing, " : ", ") + span(b),
            rel ? "bar releasing" : "bar",
            job,
            row));
  }

  /** The free width on the bar's row right of it, up to the next bar or the plot's edge. */
  private double freeAfter(Timeline.Bar b, List<Timeline.Bar> bs) {
    double next = model.left + model.plotW;
    for (Timeline.Bar o : bs) {
      if (o.row() == b.row()
          && o != b
          && o.phase() != Timeline.Phase.DAEMON
          && o.from() >= b.to()) {
        next = Math.min(next, model.x(o.from()));
      }
    }
    return next - model.x(b.to());
  }

  /** How a mark on a row is drawn. */
  static Picture.Symbol rowSymbol(Timeline.Mark m) {
    return switch (m.kind()) {
      case GROW -> Picture.Symbol.GROW;
      case SHRINK -> Picture.Symbol.SHRINK;
      case DAEMON_START, DAEMON_UP, DAEMON_LEFT -> Picture.Symbol.DAEMON;
      case ROLLBACK -> Picture.Symbol.ROLLBACK;
      case SESSION -> Picture.Symbol.SESSION;
      default -> null;
    };
  }

  private void rowMarks() {
    double s = Math.max(2.5, Math.min(5.5, model.rowH * 0.24));
    List<Timeline.Mark> ms = model.t.marks();
    for (int i = 0; i < ms.size(); i++) {
      Timeline.Mark m = ms.get(i);
      Picture.Symbol symbol = rowSymbol(m);
      if (m.row() < 0 || symbol == null) {
        continue;
      }
      double x = model.x(m.at());
      double y = model.rowsTop + m.row() * model.rowH;
      String row = model.t.rows().get(m.row()).name();
      String job = m.job() < 0 ? null : model.t.jobs().get(m.job()).label();
      String tip = describe(m, job, row);
      switch (m.kind()) {
        case GROW -> marks.up(x, y + s + 1, GROW, tip, job, row);
        case SHRINK -> marks.down(x, y + s + 1, SHRINK, tip, job, row);
        case DAEMON_START ->
            model.out.add(
                new Scene.Poly(
                    right(x + s * 0.8, y + model.rowH - s, s * 0.8),
                    "#ffffff",
                    DAEMON,
                    1,
                    tip,
                    "mark daemon-start",
                    job,
                    row));
        case DAEMON_UP ->
            model.out.add(
                new Scene.Poly(
                    right(x + s * 0.8, y + model.rowH - s, s * 0.8),
                    DAEMON,
                    DAEMON,
                    1,
                    tip,
                    "mark daemon-up",
                    job,
                    row));
        case DAEMON_LEFT ->
            model.out.add(
                new Scene.Poly(
                    leftTri(x - s * 0.8, y + model.rowH - s, s * 0.8),
                    DAEMON,
                    DAEMON,
                    1,
                    tip,
                    "mark daemon-left",
                    job,
                    row));
        case ROLLBACK -> marks.cross(x, y + model.rowH / 2, DAEMON, tip, row, "mark rollback");
        default ->
            model.out.add(
                new Scene.Poly(
                    diamond(x, y + model.rowH / 2, s),
                    SESSION,
                    "#ffffff",
                    1,
                    tip,
                    "mark session",
                    job,
                    row));
      }
      model.drawn.add(
          new Picture.Drawn(
              i, -1, symbol, model.laneLabels.getOrDefault(symbol + "@" + m.at(), -1)));
    }
  }

  private static String span(Timeline.Bar b) {
    return (b.before() ? "since before the transcript" : "from " + duration(b.from()))
        + " to "
        + duration(b.to());
  }

  private static String describe(Timeline.Mark m, String job, String row) {
    String what =
        switch (m.kind()) {
          case GROW -> "grow: " + row + " added";
          case SHRINK -> "shrink: " + row + " taken";
          case DAEMON_START -> "DVM daemon starts on " + row;
          case DAEMON_UP -> "DVM daemons up (PMIX_DVM_IS_READY)";
          case DAEMON_LEFT -> "DVM daemon left " + row;
          case ROLLBACK -> "grow rolled back on " + row;
          default -> m.text();
        };
    return (job == null ? "" : job + " ") + what + " at " + duration(m.at());
  }
}
