package io.fluxdrm.jobmanager;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One RFC 18 eventlog entry: {@code {"timestamp": seconds, "name": ..., "context": {...}}}.
 *
 * @param timestamp seconds since the epoch, positive
 * @param name the RFC 21 event name
 * @param context the context object (never null; may be empty)
 */
public record JobEvent(double timestamp, String name, ObjectNode context) {
  /** The events of decision D8, and the others the job manager writes. */
  static final String SUBMIT = "submit";

  static final String ALLOC = "alloc";
  static final String RESOURCE_UPDATE = "resource-update";
  static final String RELEASE = "release";
  static final String FREE = "free";
  static final String EXCEPTION = "exception";

  public JobEvent {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(context, "context");
  }
}
