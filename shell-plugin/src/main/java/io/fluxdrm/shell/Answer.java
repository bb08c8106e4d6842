package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ReallocAnswer;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rset.ResourceSet;
import java.util.Objects;

/**
 * The job manager's answer to one RFC 51 realloc, as the shell plugin hands it to the application:
 * one of the four response types of RFC 51. An error answer (an errnum other than ENOSYS) is not an
 * {@code Answer}: the future fails with a {@link ShellException} carrying it.
 */
public sealed interface Answer {
  /** The response type. */
  ReallocResponseType type();

  /** The scheduler's {@code alloc_id} (0 when none was assigned). */
  long allocId();

  /** The scheduler's note, empty when it gave none. */
  String note();

  /** An UNSUPPORTED answer: the scheduler or job manager has no dynamic allocation. */
  static Answer unsupported(String note) {
    return new Unsupported(0, note);
  }

  /**
   * The answer as its RFC 51 payload record: {@code alloc_id}, {@code type}, {@code R_delta_add}
   * and {@code R_delta_sub} when not empty, {@code note} when not empty.
   */
  default ReallocAnswer toRecord() {
    ResourceSet none = ResourceSet.empty();
    return new ReallocAnswer(
        allocId(),
        type(),
        this instanceof Success s ? s.added() : none,
        this instanceof Success s ? s.removed() : none,
        note().isEmpty() ? null : note());
  }

  /** The answer as RFC 51 payload keys ({@link #toRecord}). */
  default ObjectNode toJson() {
    return toRecord().toJson();
  }

  /** The answer a payload record carries (an absent note reads as empty). */
  static Answer of(ReallocAnswer a) {
    String note = a.note() == null ? "" : a.note();
    return switch (a.type()) {
      case SUCCESS -> new Success(a.allocId(), a.add(), a.sub(), note);
      case DENY -> new Deny(a.allocId(), note);
      case CANCEL -> new Cancel(a.allocId(), note);
      case UNSUPPORTED -> new Unsupported(a.allocId(), note);
    };
  }

  /**
   * SUCCESS: {@code added} joined the job's R; {@code removed} is to be released once the tasks on
   * its ranks have exited. At least one of them is not empty.
   */
  record Success(long allocId, ResourceSet added, ResourceSet removed, String note)
      implements Answer {
    /** Checks the parts. */
    public Success {
      Objects.requireNonNull(added, "added");
      Objects.requireNonNull(removed, "removed");
      Objects.requireNonNull(note, "note");
      if (added.isEmpty() && removed.isEmpty()) {
        throw new IllegalArgumentException("SUCCESS: nothing added or removed (expected: a delta)");
      }
    }

    @Override
    public ReallocResponseType type() {
      return ReallocResponseType.SUCCESS;
    }
  }

  /** DENY: the request can never be satisfied. */
  record Deny(long allocId, String note) implements Answer {
    /** Checks the parts. */
    public Deny {
      Objects.requireNonNull(note, "note");
    }

    @Override
    public ReallocResponseType type() {
      return ReallocResponseType.DENY;
    }
  }

  /** CANCEL: the request was canceled before it was satisfied. */
  record Cancel(long allocId, String note) implements Answer {
    /** Checks the parts. */
    public Cancel {
      Objects.requireNonNull(note, "note");
    }

    @Override
    public ReallocResponseType type() {
      return ReallocResponseType.CANCEL;
    }
  }

  /** UNSUPPORTED: no dynamic allocation (type 3, or errnum ENOSYS on the way). */
  record Unsupported(long allocId, String note) implements Answer {
    /** Checks the parts. */
    public Unsupported {
      Objects.requireNonNull(note, "note");
    }

    @Override
    public ReallocResponseType type() {
      return ReallocResponseType.UNSUPPORTED;
    }
  }
}
