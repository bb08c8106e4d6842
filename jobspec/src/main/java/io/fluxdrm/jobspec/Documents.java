package io.fluxdrm.jobspec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads one YAML or JSON document into a JSON tree, safely: the format is detected from the
 * content ({@code {} or {@code [} first means JSON, anything else YAML), the bytes must be UTF-8,
 * and size, nesting, duplicate keys, YAML aliases and numbers are checked so that hostile input gets
 * a clear error in bounded time and memory.
 *
 * <p>Limits: at most {@value #MAX_BYTES} bytes, at most {@value #MAX_DEPTH} levels of nesting,
 * integers within 64 bits, finite numbers, one document, no YAML aliases (anchors alone are
 * harmless; aliases are refused rather than expanded, which makes alias bombs impossible).
 */
public final class Documents {
  /** Largest document accepted, in bytes (4 MiB). */
  public static final int MAX_BYTES = 4 * 1024 * 1024;

  /** Deepest nesting of objects and arrays accepted. */
  public static final int MAX_DEPTH = 32;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final StreamReadConstraints LIMITS =
      StreamReadConstraints.builder()
          .maxNestingDepth(MAX_DEPTH + 1)
          .maxStringLength(MAX_BYTES)
          .maxNumberLength(64)
          .maxDocumentLength(MAX_BYTES)
          .build();
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(LIMITS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();
  private static final YAMLFactory YAML = yamlFactory();

  private Documents() {}

  private static YAMLFactory yamlFactory() {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(10);
    options.setNestingDepthLimit(MAX_DEPTH + 1);
    options.setCodePointLimit(MAX_BYTES);
    options.setAllowDuplicateKeys(false);
    options.setAllowRecursiveKeys(false);
    return YAMLFactory.builder()
        .loaderOptions(options)
        .streamReadConstraints(LIMITS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
        .build();
  }

  /**
   * Reads at most {@link #MAX_BYTES} (plus one, to detect excess) from a stream and parses it.
   *
   * @param in the stream; not closed
   * @return the document
   * @throws JobspecException if the document is too large, not UTF-8 or not well-formed
   * @throws IOException if the stream cannot be read
   */
  public static JsonNode read(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_BYTES + 1);
    return read(bytes);
  }

  /**
   * Parses one document.
   *
   * @param content the document's bytes (UTF-8, YAML or JSON)
   * @return the document as a JSON tree
   * @throws JobspecException if the document is too large, not UTF-8 or not well-formed
   */
  public static JsonNode read(byte[] content) {
    if (content.length > MAX_BYTES) {
      throw JobspecException.of(
          "",
          "document-size",
          "document larger than " + MAX_BYTES + " bytes (expected: at most " + MAX_BYTES + ")");
    }
    String text = decodeUtf8(content);
    boolean json = looksLikeJson(text);
    try (JsonParser p = json ? JSON.createParser(text) : YAML.createParser(text)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw JobspecException.of("", "empty", "empty document (expected: a mapping)");
      }
      JsonNode root = build(p, t, "", 1);
      if (p.nextToken() != null) {
        throw JobspecException.of(
            "", "documents", "more than one document (expected: exactly one)");
      }
      return root;
    } catch (StreamConstraintsException e) {
      throw JobspecException.of("", "limits", lowerFirst(e.getOriginalMessage()));
    } catch (JsonProcessingException e) {
      String pointer = pointerOf(e);
      String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
      if (original.startsWith("Duplicate field")) {
        throw JobspecException.of(
            pointer, "duplicate-key", "duplicate key (expected: each key once)");
      }
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + " column "
                  + e.getLocation().getColumnNr();
      throw JobspecException.of(
          pointer,
          "syntax",
          (json ? "json" : "yaml") + " syntax error" + where + ": " + firstLine(original));
    } catch (IOException e) {
      throw JobspecException.of("", "syntax", "cannot parse: " + firstLine(e.getMessage()));
    }
  }

  private static String pointerOf(JsonProcessingException e) {
    if (e.getProcessor() instanceof JsonParser p && p.getParsingContext() != null) {
      String ptr = p.getParsingContext().pathAsPointer().toString();
      return ptr.equals("/") ? "" : ptr;
    }
    return "";
  }

  private static String decodeUtf8(byte[] content) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(content);
    try {
      CharBuffer chars = decoder.decode(in);
      String s = chars.toString();
      return s.startsWith("\uFEFF") ? s.substring(1) : s;
    } catch (MalformedInputException e) {
      throw JobspecException.of(
          "",
          "encoding",
          "byte " + in.position() + " is not valid UTF-8 (expected: a UTF-8 document)");
    } catch (CharacterCodingException e) {
      throw JobspecException.of("", "encoding", "not valid UTF-8 (expected: a UTF-8 document)");
    }
  }

  private static boolean looksLikeJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '{' || c == '[';
      }
    }
    return false;
  }

  private static JsonNode build(JsonParser p, JsonToken t, String ptr, int depth)
      throws IOException {
    if (p instanceof YAMLParser y && y.isCurrentAlias()) {
      throw JobspecException.of(
          ptr,
          "yaml-alias",
          "yaml alias *" + p.getText() + " (expected: no aliases; write the value out)");
    }
    switch (t) {
      case START_OBJECT:
        {
          checkDepth(ptr, depth);
          ObjectNode o = NODES.objectNode();
          JsonToken k;
          while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            String child = ptr + "/" + escape(name);
            if (o.has(name)) {
              throw JobspecException.of(
                  child, "duplicate-key", "duplicate key (expected: each key once)");
            }
            o.set(name, build(p, p.nextToken(), child, depth + 1));
          }
          return o;
        }
      case START_ARRAY:
        {
          checkDepth(ptr, depth);
          ArrayNode a = NODES.arrayNode();
          JsonToken v;
          int i = 0;
          while ((v = p.nextToken()) != JsonToken.END_ARRAY) {
            a.add(build(p, v, ptr + "/" + i, depth + 1));
            i++;
          }
          return a;
        }
      case VALUE_STRING:
        return NODES.textNode(p.getText());
      case VALUE_NUMBER_INT:
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          throw JobspecException.of(
              ptr,
              "number-range",
              "integer " + abbreviate(p.getText()) + " out of range (expected: a 64-bit integer)");
        }
        return p.getNumberType() == JsonParser.NumberType.INT
            ? NODES.numberNode(p.getIntValue())
            : NODES.numberNode(p.getLongValue());
      case VALUE_NUMBER_FLOAT:
        {
          double d = p.getDoubleValue();
          if (!Double.isFinite(d)) {
            throw JobspecException.of(
                ptr,
                "number-range",
                "number " + abbreviate(p.getText()) + " out of range (expected: a finite number)");
          }
          return NODES.numberNode(d);
        }
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw JobspecException.of(
            ptr,
            "unsupported-value",
            "unsupported value " + t.name().toLowerCase(Locale.ROOT) + " (expected: json data)");
    }
  }

  private static void checkDepth(String ptr, int depth) {
    if (depth > MAX_DEPTH) {
      throw JobspecException.of(
          ptr,
          "nesting",
          "nested more than " + MAX_DEPTH + " levels deep (expected: at most " + MAX_DEPTH + ")");
    }
  }

  static String escape(String key) {
    return key.indexOf('~') < 0 && key.indexOf('/') < 0
        ? key
        : key.replace("~", "~0").replace("/", "~1");
  }

  private static String abbreviate(String s) {
    return s.length() > 24 ? s.substring(0, 24) + "..." : s;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "malformed document";
    }
    String line = s.lines().findFirst().orElse("malformed document").trim();
    return lowerFirst(line.endsWith(".") ? line.substring(0, line.length() - 1) : line);
  }

  private static String lowerFirst(String s) {
    if (s == null || s.isEmpty()) {
      return "limit exceeded";
    }
    return Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
