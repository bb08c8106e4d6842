package io.fluxdrm.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.curve.CurveCert;
import io.fluxdrm.schemas.Schemas;
import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The clients file of {@code fluxdrm sched --curve-clients} (decision D193): the CURVE public keys
 * allowed to connect and the credentials each connection gets, as JSON checked against the {@code
 * curve-clients} schema: {@code {"clients": [{"key": Z85, "userid": N, "role": "owner"|"user",
 * "name": TEXT}]}}.
 *
 * @param credentials the credentials of each allowed key (Z85), in file order
 * @param names who holds each key, for the log (the key's own text when the file names nobody)
 */
record CurveClients(Map<String, Credentials> credentials, Map<String, String> names) {
  /** The schema of the file. */
  static final String SCHEMA = "curve-clients";

  /** The largest clients file read (a thousand clients take about 100 KiB). */
  static final int MAX_BYTES = 4 * 1024 * 1024;

  /** The location Jackson puts inside some messages; the error's prefix says where already. */
  private static final String JACKSON_SOURCE =
      "\\s*\\(for \\w+ starting at \\[Source:[^\\]]*\\]\\)";

  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /** Copies the maps, keeping their order. */
  CurveClients {
    credentials = Collections.unmodifiableMap(new LinkedHashMap<>(credentials));
    names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
  }

  /**
   * Reads a clients file.
   *
   * @throws CliError {@code FILE: /clients/0/key: reason (expected: rule)}, or {@code
   *     FILE:LINE:COLUMN: not JSON (...)}
   */
  static CurveClients read(Path file) {
    byte[] bytes;
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw new CliError(
            file + ": " + size + " bytes (expected: a clients file of at most " + MAX_BYTES + ")");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new CliError(file + ": no such file (expected: a CURVE clients file)");
    } catch (IOException e) {
      throw CliError.cannotRead(file.toString(), e);
    }
    return parse(file.toString(), new String(bytes, StandardCharsets.UTF_8));
  }

  /**
   * Parses a clients document.
   *
   * @param label how errors name the text
   * @throws CliError naming the label, the place and the reason
   */
  static CurveClients parse(String label, String text) {
    JsonNode doc;
    try {
      doc = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      var at = e.getLocation();
      throw new CliError(
          label
              + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
              + ": not JSON ("
              + Main.firstLine(e.getOriginalMessage()).replaceAll(JACKSON_SOURCE, "")
              + ")");
    }
    if (doc == null || doc.isMissingNode()) {
      throw new CliError(label + ": empty (expected: {\"clients\": [...]})");
    }
    List<Violation> violations = new ArrayList<>(Schemas.validate(SCHEMA, doc));
    if (violations.isEmpty()) {
      Map<String, Integer> first = new HashMap<>();
      JsonNode clients = doc.get("clients");
      for (int i = 0; i < clients.size(); i++) {
        String key = clients.get(i).get("key").asText();
        String pointer = "/clients/" + i + "/key";
        try {
          CurveCert.decodeKey("key", key);
        } catch (io.fluxdrm.rpc.curve.CurveFileException e) {
          violations.add(new Violation(pointer, "z85", e.getMessage().substring("key: ".length())));
          continue;
        }
        Integer before = first.putIfAbsent(key, i);
        if (before != null) {
          violations.add(
              new Violation(
                  pointer,
                  "unique-key",
                  "the key of /clients/" + before + " again (expected: each key once)"));
        }
      }
    }
    if (!violations.isEmpty()) {
      throw new CliError(
          label + ": " + JobspecCommand.describe(violations.stream().sorted().toList()));
    }
    Map<String, Credentials> credentials = new LinkedHashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    for (JsonNode c : doc.get("clients")) {
      String key = c.get("key").asText();
      int uid = c.get("userid").asInt();
      credentials.put(
          key,
          new Credentials(
              uid, c.get("role").asText().equals("owner") ? Flags.ROLE_OWNER : Flags.ROLE_USER));
      names.put(key, c.has("name") ? c.get("name").asText() : key);
    }
    return new CurveClients(credentials, names);
  }
}
