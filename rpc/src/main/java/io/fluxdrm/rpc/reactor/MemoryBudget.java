package io.fluxdrm.rpc.reactor;

/**
 * A number of bytes that incomplete frames may hold together, on one loop (not thread-safe): a
 * listener has one for all its connections and one per peer key (issue 12, findings 1 and 10).
 */
public final class MemoryBudget {
  private final String name;
  private final long limit;
  private long used;

  public MemoryBudget(String name, long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException(name + ": negative memory budget");
    }
    this.name = name;
    this.limit = limit;
  }

  /** Counts {@code bytes} as held and returns true, or returns false when they do not fit. */
  public boolean reserve(long bytes) {
    if (bytes > limit - used) {
      return false;
    }
    used += bytes;
    return true;
  }

  /** Gives back bytes reserved earlier. */
  public void release(long bytes) {
    used = Math.max(0, used - bytes);
  }

  /** Returns the bytes held. */
  public long used() {
    return used;
  }

  public String name() {
    return name;
  }

  public long limit() {
    return limit;
  }
}
