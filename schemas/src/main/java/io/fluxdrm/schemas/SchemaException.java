package io.fluxdrm.schemas;

/** Thrown when a schema is asked for by a name that no schema file on the classpath carries. */
public final class SchemaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message lower-case text naming the schema and the problem
   */
  public SchemaException(String message) {
    super(message);
  }
}
