package io.fluxdrm.rpc.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.OptionalInt;

/**
 * Numeric uids of the user principals SO_PEERCRED yields. The JDK names the user (or gives the
 * number when the name is unknown) but does not expose the number, so a name is looked up in the
 * password file.
 */
final class Uids {
  private static final Path PASSWD = Path.of("/etc/passwd");

  private Uids() {}

  static OptionalInt uidOf(UserPrincipal user) {
    return uidOf(user.getName(), PASSWD);
  }

  static OptionalInt uidOf(String name, Path passwd) {
    if (!name.isEmpty() && name.chars().allMatch(Character::isDigit) && name.length() <= 10) {
      long v = Long.parseLong(name);
      return v <= 0xffffffffL ? OptionalInt.of((int) v) : OptionalInt.empty();
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(passwd, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return OptionalInt.empty();
    }
    for (String line : lines) {
      String[] f = line.split(":", -1);
      if (f.length >= 3 && f[0].equals(name)) {
        try {
          return OptionalInt.of((int) Long.parseLong(f[2]));
        } catch (NumberFormatException e) {
          return OptionalInt.empty();
        }
      }
    }
    return OptionalInt.empty();
  }
}
