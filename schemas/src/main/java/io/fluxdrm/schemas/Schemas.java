package io.fluxdrm.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;

/**
 * The schema registry: validates a JSON value against a schema named by its file name.
 *
 * <p>A schema named {@code NAME} is the classpath resource {@code
 * io/fluxdrm/schemas/NAME.schema.json} whose {@code $id} is {@code
 * https://fluxdrm.io/schemas/NAME.schema.json}. Any such file on the classpath is found by name, so
 * modules may contribute their own schema files. Compiled schemas are cached; all methods are
 * thread safe.
 */
public final class Schemas {
  /** The {@code $id} prefix shared by every fluxdrm schema. */
  public static final String ID_PREFIX = "https://fluxdrm.io/schemas/";

  static final String RESOURCE_DIR = "io/fluxdrm/schemas/";
  static final String SUFFIX = ".schema.json";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  private static final JsonSchemaFactory FACTORY =
      JsonSchemaFactory.getInstance(
          SpecVersion.VersionFlag.V202012,
          builder ->
              builder.schemaMappers(
                  mappers -> mappers.mapPrefix(ID_PREFIX, "classpath:" + RESOURCE_DIR)));
  private static final SchemaValidatorsConfig CONFIG =
      SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
  private static final Map<String, JsonSchema> CACHE = new ConcurrentHashMap<>();

  private Schemas() {}

  /**
   * Validates a value against the named schema.
   *
   * @param name the schema name, e.g. {@code jobspec-v1} or {@code sched.alloc-request}
   * @param value the JSON value (a {@code null} reference is treated as JSON {@code null})
   * @return every violation, sorted by location; empty when the value is valid
   * @throws SchemaException if no schema of that name exists
   */
  public static List<Violation> validate(String name, JsonNode value) {
    JsonSchema schema = compiled(name);
    JsonNode node =
        value == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : value;
    Set<ValidationMessage> messages = schema.validate(node);
    List<Violation> fractionless = IntegerFidelity.check(schema, node);
    if (messages.isEmpty() && fractionless.isEmpty()) {
      return List.of();
    }
    List<Violation> out = new ArrayList<>(messages.size() + fractionless.size());
    for (ValidationMessage m : messages) {
      out.add(MessageText.toViolation(m));
    }
    out.addAll(fractionless);
    return out.stream().distinct().sorted().toList();
  }

  /**
   * Tells whether the named schema exists on the classpath.
   *
   * @param name a schema name
   * @return true if {@code io/fluxdrm/schemas/NAME.schema.json} can be loaded
   */
  public static boolean exists(String name) {
    return NAME.matcher(name).matches()
        && (CACHE.containsKey(name) || loader().getResource(RESOURCE_DIR + name + SUFFIX) != null);
  }

  /**
   * Lists the schema names found on the classpath (directories and jars).
   *
   * @return the names, sorted
   */
  public static SortedSet<String> names() {
    SortedSet<String> names = new TreeSet<>();
    try {
      Enumeration<URL> dirs = loader().getResources(RESOURCE_DIR);
      for (URL url : Collections.list(dirs)) {
        if ("file".equals(url.getProtocol())) {
          listDirectory(Path.of(url.toURI()), names);
        } else if ("jar".equals(url.getProtocol())) {
          listJar(url, names);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list schemas on the classpath", e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot list schemas on the classpath", e);
    }
    return Collections.unmodifiableSortedSet(names);
  }

  private static JsonSchema compiled(String name) {
    Objects.requireNonNull(name, "name");
    JsonSchema cached = CACHE.get(name);
    if (cached != null) {
      return cached;
    }
    if (!exists(name)) {
      throw new SchemaException(
          "schema \"" + name + "\": not found (expected: one of " + names() + ")");
    }
    JsonSchema schema = FACTORY.getSchema(SchemaLocation.of(ID_PREFIX + name + SUFFIX), CONFIG);
    schema.initializeValidators();
    CACHE.putIfAbsent(name, schema);
    return CACHE.get(name);
  }

  private static ClassLoader loader() {
    ClassLoader cl = Schemas.class.getClassLoader();
    return cl != null ? cl : ClassLoader.getSystemClassLoader();
  }

  private static void listDirectory(Path dir, Set<String> names) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path p : files) {
        addName(p.getFileName().toString(), names);
      }
    }
  }

  private static void listJar(URL url, Set<String> names) throws IOException {
    JarURLConnection connection = (JarURLConnection) url.openConnection();
    connection.setUseCaches(false);
    try (JarFile jar = connection.getJarFile()) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        String n = entry.getName();
        if (n.startsWith(RESOURCE_DIR) && n.indexOf('/', RESOURCE_DIR.length()) < 0) {
          addName(n.substring(RESOURCE_DIR.length()), names);
        }
      }
    }
  }

  private static void addName(String fileName, Set<String> names) {
    if (fileName.endsWith(SUFFIX)) {
      String name = fileName.substring(0, fileName.length() - SUFFIX.length());
      if (NAME.matcher(name).matches()) {
        names.add(name);
      }
    }
  }
}
