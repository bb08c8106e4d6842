package io.fluxdrm.showcase.plot;

import io.fluxdrm.showcase.timeline.Timeline;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The picture of a {@link Timeline} as the layout computed it, before any SVG or PNG is written:
 * the counts its summary states, the legend, every text with its box, and every mark drawn with its
 * symbol and the text that labels it (D495). The SVG and the PNG draw its {@link Scene}.
 */
public final class Picture {

  /** A kind of symbol, as the legend explains it. */
  public enum Symbol {
    /** ▲ a node a grant added. */
    GROW,
    /** ▼ a node a grant took. */
    SHRINK,
    /** A pale bar: a node shrunk, not yet freed. */
    RELEASING,
    /** ▮▮ a held request, with a dashed line to its answer. */
    HELD,
    /** A red ✕: a denied request. */
    DENIED,
    /** A dark ✕: a grow that failed and was rolled back. */
    ROLLBACK,
    /** ○ a cancelled request. */
    CANCELED,
    /** The dark strip of a DVM daemon, ▷ started, ▶ up, ◀ gone. */
    DAEMON,
    /** ◆ a session paused, resumed, terminated or completed. */
    SESSION;

    /** Whether a mark of this symbol says what it is only with its text. */
    public boolean needsLabel() {
      return this == HELD
          || this == DENIED
          || this == ROLLBACK
          || this == CANCELED
          || this == SESSION;
    }
  }

  /**
   * What the summary counts, each event once however many transcripts showed it.
   *
   * @param nodes the rows
   * @param jobs the jobs that held a node
   * @param grows the grants that added nodes (a grant to a job at one time)
   * @param grownNodes the nodes they added (▲)
   * @param shrinks the grants that took nodes
   * @param shrunkNodes the nodes they took (▼)
   * @param held the requests that were held
   * @param denied the requests denied
   * @param rolledBack the grows rolled back
   * @param canceled the requests cancelled
   */
  public record Counts(
      int nodes,
      int jobs,
      int grows,
      int grownNodes,
      int shrinks,
      int shrunkNodes,
      int held,
      int denied,
      int rolledBack,
      int canceled) {

    /** The counts of {@code t}: its marks, grants grouped by job and time. */
    public static Counts of(Timeline t) {
      Set<String> grows = new HashSet<>();
      Set<String> shrinks = new HashSet<>();
      int grown = 0;
      int shrunk = 0;
      int denied = 0;
      int rolledBack = 0;
      int canceled = 0;
      for (Timeline.Mark m : t.marks()) {
        switch (m.kind()) {
          case GROW -> {
            grown++;
            grows.add(m.job() + "@" + m.at());
          }
          case SHRINK -> {
            shrunk++;
            shrinks.add(m.job() + "@" + m.at());
          }
          case DENIED -> denied++;
          case ROLLBACK -> rolledBack += m.row() < 0 ? 1 : 0;
          case CANCELED -> canceled++;
          default -> {}
        }
      }
      return new Counts(
          t.rows().size(),
          t.jobs().size(),
          grows.size(),
          grown,
          shrinks.size(),
          shrunk,
          LaneLayout.heldRequests(t),
          denied,
          rolledBack,
          canceled);
    }
  }

  /** An entry of the legend: its symbol (null for the words on bars) and its words. */
  public record LegendEntry(Symbol symbol, String words) {}

  /**
   * A text of the picture.
   *
   * @param text what it says
   * @param cls its class in the SVG ({@code title}, {@code summary}, {@code legend}, {@code row},
   *     {@code job-label}, {@code mark-text}, {@code tick}, {@code axis-label})
   * @param x its box's left edge
   * @param y its box's top edge
   * @param w its box's width
   * @param h its box's height
   */
  public record Label(String text, String cls, double x, double y, double w, double h) {
    TextBox box() {
      return new TextBox(x, y, w, h);
    }

    /** Whether the two labels' boxes share more than an edge. */
    public boolean overlaps(Label o) {
      return box().overlaps(o.box());
    }

    /** Whether the box lies within the picture. */
    public boolean inside(double width, double height) {
      return box().inside(width, height);
    }
  }

  /**
   * A mark or a wait drawn.
   *
   * @param mark its index in the timeline's marks, or -1 for a wait
   * @param waitIndex its index in the timeline's waits, or -1 for a mark
   * @param symbol how it is drawn
   * @param label the index of the label that says what it is, or -1
   */
  public record Drawn(int mark, int waitIndex, Symbol symbol, int label) {}

  private final Scene scene;
  private final Counts counts;
  private final List<String> summary;
  private final List<LegendEntry> legend;
  private final List<Label> labels;
  private final List<Drawn> drawn;

  Picture(
      Scene scene,
      Counts counts,
      List<String> summary,
      List<LegendEntry> legend,
      List<Label> labels,
      List<Drawn> drawn) {
    this.scene = Objects.requireNonNull(scene, "scene");
    this.counts = counts;
    this.summary = List.copyOf(summary);
    this.legend = List.copyOf(legend);
    this.labels = List.copyOf(labels);
    this.drawn = List.copyOf(drawn);
  }

  Scene scene() {
    return scene;
  }

  /** The width in pixels. */
  public int width() {
    return scene.width();
  }

  /** The height in pixels. */
  public int height() {
    return scene.height();
  }

  /** What the summary counts. */
  public Counts counts() {
    return counts;
  }

  /** The summary's lines, as drawn under the title. */
  public List<String> summary() {
    return summary;
  }

  /** The legend's entries, in order. */
  public List<LegendEntry> legend() {
    return legend;
  }

  /** Every text drawn, in drawing order. */
  public List<Label> labels() {
    return labels;
  }

  /** Every mark and wait drawn, with its symbol and its label. */
  public List<Drawn> drawn() {
    return drawn;
  }
}
