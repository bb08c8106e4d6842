package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.reactor.MemoryBudget;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory one {@link ZmtpSession}'s incomplete frames and messages hold, counted against every
 * budget it is given (a listener's, and once the peer's key is known the key's): a reservation that
 * one budget refuses is taken from none.
 */
final class FrameMemory {
  private static final Logger LOG = LoggerFactory.getLogger(ZmtpConnection.class);

  private final String name;
  private List<MemoryBudget> budgets = List.of();
  private long held;

  FrameMemory(String name) {
    this.name = name;
  }

  /** Releases what is held and counts from now on against {@code list}. */
  void budgets(List<MemoryBudget> list) {
    release();
    budgets = List.copyOf(list);
  }

  /** Reserves {@code bytes} in every budget, or in none when one is used up. */
  boolean reserve(long bytes) {
    for (int i = 0; i < budgets.size(); i++) {
      if (!budgets.get(i).reserve(bytes)) {
        for (int j = 0; j < i; j++) {
          budgets.get(j).release(bytes);
        }
        LOG.debug(
            "{}: {} of {} bytes used up", name, budgets.get(i).name(), budgets.get(i).limit());
        return false;
      }
    }
    held += bytes;
    return true;
  }

  /** Releases everything held. */
  void release() {
    for (MemoryBudget b : budgets) {
      b.release(held);
    }
    held = 0;
  }

  /** Returns the bytes held. */
  long held() {
    return held;
  }
}
