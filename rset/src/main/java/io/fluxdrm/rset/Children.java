package io.fluxdrm.rset;

import java.util.Arrays;

/**
 * The resources of one rank, by type name ({@code core}, {@code gpu}, ...): immutable, types kept
 * in the order flux-core prints them (core first, then the others alphabetically), empty sets
 * dropped.
 */
final class Children {

  static final Children NONE = new Children(new String[0], new IdSet[0]);

  private final String[] names;
  private final IdSet[] sets;
  private final int hash;

  private Children(String[] names, IdSet[] sets) {
    this.names = names;
    this.sets = sets;
    this.hash = 31 * Arrays.hashCode(names) + Arrays.hashCode(sets);
  }

  static Children of(String name, IdSet set) {
    return NONE.with(name, set);
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

  boolean isEmpty() {
    return names.length == 0;
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

  /** These children with the set of {@code name} replaced (removed when empty). */
  Children with(String name, IdSet set) {
    int at = -1;
    int insert = names.length;
    for (int i = 0; i < names.length; i++) {
      int c = compareNames(names[i], name);
      if (c == 0) {
        at = i;
        break;
      }
      if (c > 0) {
        insert = i;
        break;
      }
    }
    if (at >= 0) {
      if (set.isEmpty()) {
        String[] n = new String[names.length - 1];
        IdSet[] s = new IdSet[names.length - 1];
        System.arraycopy(names, 0, n, 0, at);
        System.arraycopy(sets, 0, s, 0, at);
        System.arraycopy(names, at + 1, n, at, names.length - at - 1);
        System.arraycopy(sets, at + 1, s, at, names.length - at - 1);
        return n.length == 0 ? NONE : new Children(n, s);
      }
      if (sets[at].equals(set)) {
        return this;
      }
      IdSet[] s = sets.clone();
      s[at] = set;
      return new Children(names, s);
    }
    if (set.isEmpty()) {
      return this;
    }
    String[] n = new String[names.length + 1];
    IdSet[] s = new IdSet[names.length + 1];
    System.arraycopy(names, 0, n, 0, insert);
    System.arraycopy(sets, 0, s, 0, insert);
    n[insert] = name;
    s[insert] = set;
    System.arraycopy(names, insert, n, insert + 1, names.length - insert);
    System.arraycopy(sets, insert, s, insert + 1, names.length - insert);
    return new Children(n, s);
  }

  /** Union per type. */
  Children union(Children o) {
    if (o.isEmpty() || o == this) {
      return this;
    }
    Children r = this;
    for (int i = 0; i < o.names.length; i++) {
      r = r.with(o.names[i], get(o.names[i]).union(o.sets[i]));
    }
    return r;
  }

  /** Difference per type; types left empty disappear. */
  Children difference(Children o) {
    Children r = this;
    for (int i = 0; i < o.names.length; i++) {
      IdSet mine = get(o.names[i]);
      if (!mine.isEmpty()) {
        r = r.with(o.names[i], mine.difference(o.sets[i]));
      }
    }
    return r;
  }

  /** Intersection per type. */
  Children intersection(Children o) {
    Children r = NONE;
    for (int i = 0; i < names.length; i++) {
      IdSet other = o.get(names[i]);
      if (!other.isEmpty()) {
        r = r.with(names[i], sets[i].intersection(other));
      }
    }
    return r;
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

  boolean containsAll(Children o) {
    for (int i = 0; i < o.names.length; i++) {
      if (!o.sets[i].isSubsetOf(get(o.names[i]))) {
        return false;
      }
    }
    return true;
  }

  /** {@code core[0-3],gpu0}: each type with its ids in bracketed form. */
  void appendSummary(StringBuilder sb) {
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(names[i]).append(sets[i].encode(IdSet.Style.BRACKETS));
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Children c
        && hash == c.hash
        && Arrays.equals(names, c.names)
        && Arrays.equals(sets, c.sets);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    appendSummary(sb);
    return sb.toString();
  }
}
