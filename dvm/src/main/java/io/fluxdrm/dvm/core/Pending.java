package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.Waiting;
import java.util.LinkedHashMap;

/** A request in flight: what it is and what it waits for. */
final class Pending {
  final DvmEvent.Request request;
  final String what;
  Waiting waiting;

  /** Files an activation still waits for, with the text of those read. */
  LinkedHashMap<String, String> files;

  Pending(DvmEvent.Request request, String what, Waiting waiting) {
    this.request = request;
    this.what = what;
    this.waiting = waiting;
  }
}
