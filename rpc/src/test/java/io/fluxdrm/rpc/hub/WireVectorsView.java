package io.fluxdrm.rpc.hub;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rpc.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Looks up the live-broker vectors of the codec tests by name. */
final class WireVectorsView {
  private final JsonNode root;

  WireVectorsView() {
    try (InputStream in =
        WireVectorsView.class.getResourceAsStream("/io/fluxdrm/rpc/live-broker-wire.json")) {
      root = Json.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String hex(String name) {
    for (JsonNode v : root.get("vectors")) {
      if (v.get("name").asText().equals(name)) {
        return v.get("stream_hex").asText();
      }
    }
    throw new IllegalArgumentException("no vector " + name);
  }
}
