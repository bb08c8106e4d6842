package io.fluxdrm.rset;

import java.util.Set;
import java.util.TreeSet;

/**
 * One execution target of an R: its rank, host name (null when R has no nodelist), resources and
 * property names (an unmodifiable sorted set).
 */
record RNode(int rank, String host, Children children, Set<String> properties) {

  RNode(int rank, String host, Children children) {
    this(rank, host, children, Set.of());
  }

  RNode withChildren(Children c) {
    return c == children ? this : new RNode(rank, host, c, properties);
  }

  RNode withRank(int r) {
    return r == rank ? this : new RNode(r, host, children, properties);
  }

  RNode withHost(String h) {
    return new RNode(rank, h, children, properties);
  }

  RNode plusProperties(Set<String> more) {
    if (more.isEmpty() || properties.containsAll(more)) {
      return this;
    }
    TreeSet<String> p = new TreeSet<>(properties);
    p.addAll(more);
    return new RNode(rank, host, children, java.util.Collections.unmodifiableSet(p));
  }

  boolean isEmpty() {
    return children.isEmpty();
  }
}
