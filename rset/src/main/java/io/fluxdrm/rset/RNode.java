package io.fluxdrm.rset;

/** One execution target of an R: its rank, host name (null when R has no nodelist), resources. */
record RNode(int rank, String host, Children children) {

  RNode withChildren(Children c) {
    return c == children ? this : new RNode(rank, host, c);
  }

  RNode withRank(int r) {
    return r == rank ? this : new RNode(r, host, children);
  }
}
