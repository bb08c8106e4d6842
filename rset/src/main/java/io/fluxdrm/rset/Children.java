package io.fluxdrm.rset;

import java.util.Arrays;

/**
 * The resources of one rank, by type name ({@code core}, {@code gpu}, ...): immutable, types kept
 * in the order flux-core prints them (core first, then the others alphabetically). As in
 * flux-core's rnode, {@code core} is always present and a type named with an empty set is kept (it
 * makes two ranks differ when R_lite groups them) until a difference empties it.
 */
final class Children {

  private static final String[] CORE = {"core"};
  private static final String[] CORE_GPU = {"core", "gpu"};

  static final Children NONE = new Children(CORE, new IdSet[] {IdSet.empty()});

  private final String[] names;
  private final IdSet[] sets;

  /** Computed on first use (0 until then). */
  private int hash;

  private Children(String[] names, IdSet[] sets) {
    this.names = names;
    this.sets = sets;
  }

  /**
   * Children of the first {@code n} names and sets; the names array of {@code like} (or a shared
   * common one) is reused when equal, so that equal children share their name arrays.
   */
  private static Children of(String[] names, IdSet[] sets, int n, String[] like) {
    String[] nm;
    if (n == like.length && Arrays.equals(names, 0, n, like, 0, n)) {
      nm = like;
    } else if (n == 1 && names[0].equals("core")) {
      nm = CORE;
    } else if (n == 2 && names[0].equals("core") && names[1].equals("gpu")) {
      nm = CORE_GPU;
    } else {
      nm = Arrays.copyOf(names, n);
    }
    return new Children(nm, n == sets.length ? sets : Arrays.copyOf(sets, n));
  }

  static int compareNames(String a, String b) {
    boolean ac = a.equals("core");
    boolean bc = b.equals("core");
    if (ac || bc) {
      return ac == bc ? 0 : (ac ? -1 : 1);
    }
    return a.compareTo(b);
  }

  int size() {
    return names.length;
  }

  String name(int i) {
    return names[i];
  }

  IdSet set(int i) {
    return sets[i];
  }

  /** Whether no type holds any id. */
  boolean isEmpty() {
    for (IdSet s : sets) {
      if (!s.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** The set of one type; empty when the rank has none. */
  IdSet get(String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return sets[i];
      }
    }
    return IdSet.empty();
  }

  /** These children with the set of {@code name} replaced (added when absent, even if empty). */
  Children with(String name, IdSet set) {
    int insert = names.length;
    for (int i = 0; i < names.length; i++) {
      int c = compareNames(names[i], name);
      if (c == 0) {
        if (sets[i].equals(set)) {
          return this;
        }
        IdSet[] s = sets.clone();
        s[i] = set;
        return new Children(names, s);
      }
      if (c > 0) {
        insert = i;
        break;
      }
    }
    String[] n = new String[names.length + 1];
    IdSet[] s = new IdSet[names.length + 1];
    System.arraycopy(names, 0, n, 0, insert);
    System.arraycopy(sets, 0, s, 0, insert);
    n[insert] = name;
    s[insert] = set;
    System.arraycopy(names, insert, n, insert + 1, names.length - insert);
    System.arraycopy(sets, insert, s, insert + 1, names.length - insert);
    return of(n, s, n.length, names);
  }

  /** Union per type. */
  Children union(Children o) {
    if (o == this) {
      return this;
    }
    if (Arrays.equals(names, o.names)) {
      IdSet[] s = new IdSet[sets.length];
      for (int i = 0; i < s.length; i++) {
        s[i] = sets[i].union(o.sets[i]);
      }
      return new Children(names, s);
    }
    String[] n = new String[names.length + o.names.length];
    IdSet[] s = new IdSet[n.length];
    int k = 0;
    int i = 0;
    int j = 0;
    while (i < names.length || j < o.names.length) {
      int c = i >= names.length ? 1 : j >= o.names.length ? -1 : compareNames(names[i], o.names[j]);
      if (c < 0) {
        n[k] = names[i];
        s[k++] = sets[i++];
      } else if (c > 0) {
        n[k] = o.names[j];
        s[k++] = o.sets[j++];
      } else {
        n[k] = names[i];
        s[k++] = sets[i++].union(o.sets[j++]);
      }
    }
    return of(n, s, k, names);
  }

  /**
   * Difference per type, as flux-core's rnode_diff: types of {@code o} that these children also
   * have are subtracted; a type other than {@code core} left empty disappears.
   */
  Children difference(Children o) {
    if (Arrays.equals(names, o.names)) {
      IdSet[] s = new IdSet[sets.length];
      boolean same = true;
      boolean emptied = false;
      for (int i = 0; i < s.length; i++) {
        s[i] = sets[i].difference(o.sets[i]);
        same &= s[i] == sets[i];
        emptied |= i > 0 && s[i].isEmpty();
      }
      if (!emptied) {
        return same ? this : new Children(names, s);
      }
    }
    String[] n = new String[names.length];
    IdSet[] s = new IdSet[names.length];
    int k = 0;
    int j = 0;
    boolean same = true;
    for (int i = 0; i < names.length; i++) {
      while (j < o.names.length && compareNames(o.names[j], names[i]) < 0) {
        j++;
      }
      IdSet left = sets[i];
      if (j < o.names.length && o.names[j].equals(names[i])) {
        left = sets[i].difference(o.sets[j]);
        if (left.isEmpty() && !names[i].equals("core")) {
          same = false;
          continue;
        }
      }
      same &= left == sets[i];
      n[k] = names[i];
      s[k++] = left;
    }
    return same ? this : of(n, s, k, names);
  }

  /** Intersection per type: {@code core} (maybe empty) and each shared type with common ids. */
  Children intersection(Children o) {
    if (names.length == 2 && Arrays.equals(names, o.names)) {
      // core and one other type, the common case
      IdSet core = sets[0].intersection(o.sets[0]);
      IdSet other = sets[1].intersection(o.sets[1]);
      return other.isEmpty()
          ? new Children(CORE, new IdSet[] {core})
          : new Children(names, new IdSet[] {core, other});
    }
    String[] n = new String[names.length + 1];
    IdSet[] s = new IdSet[names.length + 1];
    n[0] = "core";
    s[0] = IdSet.empty();
    int k = 1;
    int j = 0;
    for (int i = 0; i < names.length; i++) {
      while (j < o.names.length && compareNames(o.names[j], names[i]) < 0) {
        j++;
      }
      if (j < o.names.length && o.names[j].equals(names[i])) {
        IdSet common = sets[i].intersection(o.sets[j]);
        if (names[i].equals("core")) {
          s[0] = common;
        } else if (!common.isEmpty()) {
          n[k] = names[i];
          s[k++] = common;
        }
      }
    }
    return of(n, s, k, names);
  }

  /**
   * Whether {@link #difference} by {@code o} leaves nothing: every id of every type is in {@code
   * o}'s set of that type. Allocates nothing.
   */
  boolean coveredBy(Children o) {
    int j = 0;
    for (int i = 0; i < names.length; i++) {
      if (sets[i].isEmpty()) {
        continue;
      }
      while (j < o.names.length && compareNames(o.names[j], names[i]) < 0) {
        j++;
      }
      if (j >= o.names.length || !o.names[j].equals(names[i]) || !subset(sets[i], o.sets[j])) {
        return false;
      }
    }
    return true;
  }

  /** Whether every id of {@code a} is in {@code b}, walking their ranges. */
  private static boolean subset(IdSet a, IdSet b) {
    int j = 0;
    int nb = b.rangeCount();
    for (int i = 0; i < a.rangeCount(); i++) {
      int lo = a.rangeLo(i);
      while (j < nb && b.rangeHi(j) < lo) {
        j++;
      }
      if (j >= nb || b.rangeLo(j) > lo || b.rangeHi(j) < a.rangeHi(i)) {
        return false;
      }
    }
    return true;
  }

  /** The first type whose ids both share, or null. */
  String overlap(Children o) {
    for (int i = 0; i < names.length; i++) {
      if (sets[i].intersects(o.get(names[i]))) {
        return names[i];
      }
    }
    return null;
  }

  /** {@code core[0-3],gpu0}: each non-empty type with its ids in bracketed form. */
  void appendSummary(StringBuilder sb) {
    boolean first = true;
    for (int i = 0; i < names.length; i++) {
      if (sets[i].isEmpty()) {
        continue;
      }
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append(names[i]).append(sets[i].encode(IdSet.Style.BRACKETS));
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Children c
        && (o == this
            || (hashCode() == c.hashCode()
                && Arrays.equals(names, c.names)
                && Arrays.equals(sets, c.sets)));
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 31 * Arrays.hashCode(names) + Arrays.hashCode(sets);
      hash = h == 0 ? 1 : h;
    }
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    appendSummary(sb);
    return sb.toString();
  }
}
