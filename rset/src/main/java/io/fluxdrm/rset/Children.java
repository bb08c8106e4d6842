package io.fluxdrm.rset;

import java.util.Arrays;

/**
 * The resources of one rank, by type name ({@code core}, {@code gpu}, ...): immutable, types kept
 * in the order flux-core prints them (core first, then the others alphabetically). As in
 * flux-core's rnode, {@code core} is always present and a type named with an empty set is kept (it
 * makes two ranks differ when R_lite groups them) until a difference empties it.
 */
final class Children {

  static final Children NONE = new Children(new String[] {"core"}, new IdSet[] {IdSet.empty()});

  private final String[] names;
  private final IdSet[] sets;
  private final int hash;

  private Children(String[] names, IdSet[] sets) {
    this.names = names;
    this.sets = sets;
    this.hash = 31 * Arrays.hashCode(names) + Arrays.hashCode(sets);
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
    return new Children(n, s);
  }

  /** These children without type {@code name} ({@code core} is never removed). */
  Children without(String name) {
    if (name.equals("core")) {
      return this;
    }
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        String[] n = new String[names.length - 1];
        IdSet[] s = new IdSet[names.length - 1];
        System.arraycopy(names, 0, n, 0, i);
        System.arraycopy(sets, 0, s, 0, i);
        System.arraycopy(names, i + 1, n, i, names.length - i - 1);
        System.arraycopy(sets, i + 1, s, i, names.length - i - 1);
        return new Children(n, s);
      }
    }
    return this;
  }

  /** Whether type {@code name} is present (possibly empty). */
  boolean has(String name) {
    for (String n : names) {
      if (n.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Total number of ids over all types. */
  long total() {
    long t = 0;
    for (IdSet s : sets) {
      t += s.count();
    }
    return t;
  }

  /** Union per type. */
  Children union(Children o) {
    if (o == this) {
      return this;
    }
    Children r = this;
    for (int i = 0; i < o.names.length; i++) {
      r = r.with(o.names[i], get(o.names[i]).union(o.sets[i]));
    }
    return r;
  }

  /**
   * Difference per type, as flux-core's rnode_diff: types of {@code o} that these children also
   * have are subtracted; a type other than {@code core} left empty disappears.
   */
  Children difference(Children o) {
    Children r = this;
    for (int i = 0; i < o.names.length; i++) {
      String name = o.names[i];
      if (has(name)) {
        IdSet left = get(name).difference(o.sets[i]);
        r = left.isEmpty() && !name.equals("core") ? r.without(name) : r.with(name, left);
      }
    }
    return r;
  }

  /** Intersection per type: {@code core} (maybe empty) and each shared type with common ids. */
  Children intersection(Children o) {
    Children r = NONE;
    for (int i = 0; i < names.length; i++) {
      if (o.has(names[i])) {
        IdSet common = sets[i].intersection(o.get(names[i]));
        if (!common.isEmpty()) {
          r = r.with(names[i], common);
        }
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
