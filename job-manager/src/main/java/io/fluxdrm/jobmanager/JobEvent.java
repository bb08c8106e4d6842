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
  public static final String SUBMIT = "submit";

  public static final String ALLOC = "alloc";
  public static final String RESOURCE_UPDATE = "resource-update";
  public static final String RELEASE = "release";
  public static final String FREE = "free";
  public static final String EXCEPTION = "exception";

  public JobEvent {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(context, "context");
  }
}
