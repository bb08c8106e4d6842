package io.fluxdrm.showcase.plot;

import io.fluxdrm.showcase.timeline.Timeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/**
 * The lane of requests above the nodes' rows, where every mark that needs words gets them (D495):
 * held requests (▮▮ and a dashed line to the answer, one item with the held mark that starts it),
 * denials, rolled-back grows, cancelled requests, and the sessions' events (◆, also drawn on their
 * node's row). Items close together are one group with one text, their texts joined ({@code session
 * 1000 paused, resumed, terminated}); each group goes into the first of up to {@link #MAX_LANES}
 * sub-lanes where its symbols and text do not meet another's. When they do not fit, items are
 * grouped more coarsely until they do: every item keeps its symbol and its tooltip, and every text
 * fits within the picture, cut short with the number of texts left out when needed.
 */
final class LaneLayout {
  /** The most sub-lanes the lane grows to. */
  static final int MAX_LANES = 6;

  /** The height of a sub-lane. */
  static final double LANE_H = 17;

  static final double FONT = 11;

  private static final double GAP = 6;

  /**
   * Something drawn in the lane.
   *
   * @param at where it starts, in ns from the timeline's start
   * @param until where its dashed line ends (a wait), else {@code at}
   * @param symbol how it is drawn
   * @param text what it says
   * @param tip its tooltip
   * @param marks the timeline's marks it stands for
   * @param waitIndex the timeline's wait it stands for, or -1
   * @param job the job's label, or null
   */
  record Item(
      long at,
      long until,
      Picture.Symbol symbol,
      String text,
      String tip,
      List<Integer> marks,
      int waitIndex,
      String job) {}

  /**
   * A group of items with one text, placed in a sub-lane.
   *
   * @param items the items, by time
   * @param text the text
   * @param tx where the text starts
   * @param lane the sub-lane
   */
  record Group(List<Item> items, String text, double tx, int lane) {}

  /** The groups and how many sub-lanes they take. */
  record Plan(List<Group> groups, int lanes) {}

  private LaneLayout() {}

  /** The items of the lane: each wait with the held mark that starts it, then the other marks. */
  static List<Item> items(Timeline t) {
    List<Item> out = new ArrayList<>();
    java.util.Set<Integer> used = new java.util.HashSet<>();
    List<Timeline.Mark> ms = t.marks();
    for (int i = 0; i < t.waits().size(); i++) {
      Timeline.Wait w = t.waits().get(i);
      int held = -1;
      for (int j = 0; j < ms.size() && held < 0; j++) {
        Timeline.Mark m = ms.get(j);
        if (m.kind() == Timeline.MarkKind.HELD
            && m.row() < 0
            && m.job() == w.job()
            && m.at() == w.from()
            && !used.contains(j)) {
          held = j;
        }
      }
      String tip = w.text();
      List<Integer> marks = List.of();
      if (held >= 0) {
        used.add(held);
        marks = List.of(held);
        tip = ms.get(held).text() + "; " + w.text();
      }
      out.add(
          new Item(
              w.from(), w.to(), Picture.Symbol.HELD, w.text(), tip, marks, i, jobOf(t, w.job())));
    }
    for (int j = 0; j < ms.size(); j++) {
      Timeline.Mark m = ms.get(j);
      if (used.contains(j)) {
        continue;
      }
      Picture.Symbol s = laneSymbol(m);
      if (s != null) {
        out.add(new Item(m.at(), m.at(), s, m.text(), m.text(), List.of(j), -1, jobOf(t, m.job())));
      }
    }
    out.sort(Comparator.comparingLong(Item::at));
    return out;
  }

  /** How a mark is drawn in the lane, or null when it is not. */
  private static Picture.Symbol laneSymbol(Timeline.Mark m) {
    return switch (m.kind()) {
      case SESSION -> Picture.Symbol.SESSION;
      case DENIED -> m.row() < 0 ? Picture.Symbol.DENIED : null;
      case ROLLBACK -> m.row() < 0 ? Picture.Symbol.ROLLBACK : null;
      case HELD -> m.row() < 0 ? Picture.Symbol.HELD : null;
      case CANCELED -> m.row() < 0 ? Picture.Symbol.CANCELED : null;
      default -> null;
    };
  }

  private static String jobOf(Timeline t, int job) {
    return job < 0 ? null : t.jobs().get(job).label();
  }

  /** The requests the lane shows as held (a wait, or a held mark without one). */
  static int heldRequests(Timeline t) {
    return (int) items(t).stream().filter(i -> i.symbol() == Picture.Symbol.HELD).count();
  }

  /**
   * Groups and places the items between {@code left} and {@code right}, {@code x} giving each
   * time's position.
   */
  static Plan plan(List<Item> items, LongToDoubleFunction x, double left, double right) {
    double span = Math.max(1, right - left);
    // first each kind of item apart, then any close enough together
    Plan first = tryPlan(items, x, left, right, 12, true);
    if (first != null) {
      return first;
    }
    for (double g = 12; ; g *= 2) {
      Plan p = tryPlan(items, x, left, right, g, false);
      if (p != null) {
        return p;
      }
      if (g > 2 * span) {
        // one group of all: one sub-lane, always fits
        return tryPlan(items, x, left, right, Double.POSITIVE_INFINITY, false);
      }
    }
  }

  private static Plan tryPlan(
      List<Item> items,
      LongToDoubleFunction x,
      double left,
      double right,
      double g,
      boolean bySymbol) {
    if (bySymbol) {
      // each symbol's items grouped on their own, then placed together
      List<List<Item>> chains = new ArrayList<>();
      for (Picture.Symbol s : Picture.Symbol.values()) {
        List<Item> mine = items.stream().filter(i -> i.symbol() == s).toList();
        if (!mine.isEmpty()) {
          chains.addAll(chains(mine, x, g));
        }
      }
      return place(chains, x, left, right, g);
    }
    return place(chains(items, x, g), x, left, right, g);
  }

  /** The items in chains: each joins the previous when close, or of one subject with it. */
  private static List<List<Item>> chains(List<Item> items, LongToDoubleFunction x, double g) {
    List<List<Item>> chains = new ArrayList<>();
    double lastX = Double.NEGATIVE_INFINITY;
    Item prev = null;
    for (Item it : items) {
      double ix = x.applyAsDouble(it.at());
      // the same kind of event of the same subject ("session 1000 paused", "... resumed") joins
      // its neighbour when their texts would meet
      boolean sameSubject =
          prev != null
              && prev.symbol() == it.symbol()
              && !commonWords(List.of(prev.text(), it.text())).isEmpty()
              && ix - lastX <= TextBox.width(prev.text(), FONT, false) + 2 * GAP;
      if (chains.isEmpty() || ix - lastX > g && !sameSubject) {
        chains.add(new ArrayList<>());
      }
      chains.get(chains.size() - 1).add(it);
      lastX = ix;
      prev = it;
    }
    return chains;
  }

  private static Plan place(
      List<List<Item>> chains, LongToDoubleFunction x, double left, double right, double g) {
    record Placed(List<Item> items, String text, double tx, double lo, double hi) {}
    List<Placed> placed = new ArrayList<>();
    double room = right - left;
    for (List<Item> c : chains) {
      double first = x.applyAsDouble(c.get(0).at());
      double last = x.applyAsDouble(c.get(c.size() - 1).at());
      double end = last;
      for (Item it : c) {
        end = Math.max(end, x.applyAsDouble(it.until()));
      }
      String text = fit(texts(c), room);
      double w = TextBox.width(text, FONT, false);
      double tx;
      if (last + 8 + w <= right) {
        tx = last + 8;
      } else if (first - 8 - w >= left) {
        tx = first - 8 - w;
      } else {
        tx = Math.max(left, right - w);
      }
      double lo = Math.min(first - GAP, tx);
      double hi = Math.max(Math.max(last + GAP, end), tx + w);
      placed.add(new Placed(c, text, tx, lo, hi));
    }
    placed.sort(Comparator.comparingDouble(Placed::lo));
    List<Double> ends = new ArrayList<>();
    List<Group> groups = new ArrayList<>();
    for (Placed p : placed) {
      int lane = -1;
      for (int i = 0; i < ends.size() && lane < 0; i++) {
        if (ends.get(i) + GAP <= p.lo()) {
          lane = i;
        }
      }
      if (lane < 0) {
        if (ends.size() == MAX_LANES && g != Double.POSITIVE_INFINITY) {
          return null;
        }
        ends.add(Double.NEGATIVE_INFINITY);
        lane = ends.size() - 1;
      }
      ends.set(lane, p.hi());
      groups.add(new Group(p.items(), p.text(), p.tx(), lane));
    }
    return new Plan(groups, ends.size());
  }

  /** The distinct texts of the items, in order. */
  private static List<String> texts(List<Item> items) {
    LinkedHashSet<String> t = new LinkedHashSet<>();
    for (Item it : items) {
      if (!it.text().isEmpty()) {
        t.add(it.text());
      }
    }
    return new ArrayList<>(t);
  }

  /**
   * The texts as one, within {@code room} pixels: those of one subject joined after their common
   * first words ({@code session 1000 paused, resumed}), subjects joined with "; "; as many as fit,
   * then how many were left out ({@code … (+3 more)}).
   */
  static String fit(List<String> texts, double room) {
    if (texts.isEmpty()) {
      return "";
    }
    // the pieces in order, each with what comes before it
    List<String> pieces = new ArrayList<>();
    List<String> seps = new ArrayList<>();
    int i = 0;
    while (i < texts.size()) {
      int j = i + 1;
      String prefix = "";
      while (j < texts.size()) {
        String p = commonWords(texts.subList(i, j + 1));
        if (p.isEmpty()) {
          break;
        }
        prefix = p;
        j++;
      }
      for (int k = i; k < j; k++) {
        seps.add(pieces.isEmpty() ? "" : k == i ? "; " : ", ");
        pieces.add(k == i ? texts.get(k) : texts.get(k).substring(prefix.length()));
      }
      i = j;
    }
    for (int n = pieces.size(); n >= 1; n--) {
      StringBuilder b = new StringBuilder();
      for (int k = 0; k < n; k++) {
        b.append(seps.get(k)).append(pieces.get(k));
      }
      String s = n == pieces.size() ? b.toString() : b + " … (+" + (pieces.size() - n) + " more)";
      if (TextBox.width(s, FONT, false) <= room) {
        return s;
      }
    }
    String more = pieces.size() > 1 ? " (+" + (pieces.size() - 1) + " more)" : "";
    String head = pieces.get(0);
    for (int len = head.length() - 1; len > 0; len--) {
      String s = head.substring(0, len).strip() + "…" + more;
      if (TextBox.width(s, FONT, false) <= room) {
        return s;
      }
    }
    return "…";
  }

  /** The words every text starts with, ending with a space, when they leave each something. */
  private static String commonWords(List<String> texts) {
    if (texts.size() < 2) {
      return "";
    }
    String p = texts.get(0);
    for (String s : texts) {
      int i = 0;
      while (i < p.length() && i < s.length() && p.charAt(i) == s.charAt(i)) {
        i++;
      }
      p = p.substring(0, i);
    }
    int sp = p.lastIndexOf(' ');
    p = sp < 0 ? "" : p.substring(0, sp + 1);
    for (String s : texts) {
      if (s.length() == p.length()) {
        return "";
      }
    }
    return p;
  }
}
