package io.fluxdrm.rpc.curve;

import java.io.IOException;
import java.io.Serial;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * A certificate file or key that cannot be used, as one line naming the file (and the line) and the
 * reason, e.g. {@code FILE:2: public-key: 3 characters (expected: 40 Z85 characters)}: what {@code
 * fluxdrm} prints as its error line.
 */
public final class CurveFileException extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * @param message the whole line
   */
  public CurveFileException(String message) {
    super(message, null, false, false);
  }

  /**
   * A file that could not be read, with why in words ({@code no such file}, {@code permission
   * denied}, the system's reason), not the bare path an {@link IOException} often carries.
   */
  static CurveFileException cannotRead(String what, IOException e) {
    return new CurveFileException(what + ": cannot read (" + why(e) + ")");
  }

  /** Why an I/O operation failed, in words. */
  public static String why(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
