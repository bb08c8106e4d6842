package io.fluxdrm.rpc.hub;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Numeric uids of the user principals SO_PEERCRED yields. The JDK names the peer's uid with
 * getpwuid (or gives the number when the uid has no entry) but does not expose the number, so the
 * name is mapped back through the system's user database, NSS included ({@code getent passwd}, and
 * {@code id -u} for a name lookup of a name made of digits). A name is never taken for a number
 * unless the database says that no user has that name and no entry has that uid; an answer that two
 * users could explain is refused (D225). Answers are cached for a minute.
 */
final class Uids {
  private static final long TTL_NANOS = TimeUnit.SECONDS.toNanos(60);
  private static final long LOOKUP_SECONDS = 5;

  /** One entry of the user database: its name and uid. */
  record Entry(String name, int uid) {}

  /**
   * The database's two lookups.
   *
   * @param byUid getpwuid: the entry of a uid, empty when there is none
   * @param byName getpwnam: the uid of a name, empty when there is none
   */
  record Database(Function<Long, Optional<Entry>> byUid, Function<String, OptionalInt> byName) {}

  private record Cached(OptionalInt uid, long at) {}

  private static final Map<String, Cached> CACHE = new ConcurrentHashMap<>();
  private static final ExecutorService LOOKUPS =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "fluxdrm-uid-lookup");
            t.setDaemon(true);
            return t;
          });
  static final Database SYSTEM = new Database(Uids::getpwuid, Uids::getpwnam);

  private Uids() {}

  /** Resolves a principal off the caller's thread (the lookup may run a process). */
  static CompletableFuture<OptionalInt> uidOfAsync(UserPrincipal user) {
    String name = user.getName();
    Cached c = CACHE.get(name);
    if (c != null && System.nanoTime() - c.at() < TTL_NANOS) {
      return CompletableFuture.completedFuture(c.uid());
    }
    return CompletableFuture.supplyAsync(
        () -> {
          OptionalInt uid = uidOf(name, SYSTEM);
          CACHE.put(name, new Cached(uid, System.nanoTime()));
          return uid;
        },
        LOOKUPS);
  }

  /** Maps the name the JDK gave for a peer back to its uid; empty when unknown or ambiguous. */
  static OptionalInt uidOf(String name, Database db) {
    if (name.isEmpty()) {
      return OptionalInt.empty();
    }
    boolean digits = name.chars().allMatch(ch -> ch >= '0' && ch <= '9') && name.length() <= 10;
    if (!digits) {
      return db.byName().apply(name);
    }
    long n = Long.parseLong(name);
    if (n > 0xffffffffL) {
      return OptionalInt.empty();
    }
    Optional<Entry> atN = db.byUid().apply(n);
    OptionalInt named = db.byName().apply(name);
    if (atN.isPresent() && atN.get().name().equals(name)) {
      // uid n is named n: unless another user is named n too
      return named.isEmpty() || Integer.toUnsignedLong(named.getAsInt()) == n
          ? OptionalInt.of((int) n)
          : OptionalInt.empty();
    }
    if (atN.isPresent()) {
      // uid n has another name, so the peer is the user named n, whose uid is not n
      if (named.isEmpty() || Integer.toUnsignedLong(named.getAsInt()) == n) {
        return OptionalInt.empty();
      }
      Optional<Entry> back = db.byUid().apply(Integer.toUnsignedLong(named.getAsInt()));
      return back.isPresent() && back.get().name().equals(name) ? named : OptionalInt.empty();
    }
    // uid n has no entry: the JDK gave the number, unless a user is named n (then: ambiguous)
    return named.isEmpty() ? OptionalInt.of((int) n) : OptionalInt.empty();
  }

  private static Optional<Entry> getpwuid(long uid) {
    // getent passwd with a numeric key calls getpwuid
    return run("getent", "passwd", Long.toString(uid))
        .flatMap(
            out -> {
              String[] f = out.split("\n", -1)[0].split(":", -1);
              if (f.length < 3) {
                return Optional.empty();
              }
              try {
                return Optional.of(new Entry(f[0], (int) Long.parseLong(f[2])));
              } catch (NumberFormatException e) {
                return Optional.empty();
              }
            });
  }

  private static OptionalInt getpwnam(String name) {
    // id looks a name up with getpwnam first; a digit name it cannot find it takes for a uid,
    // which uidOf tells apart with getpwuid. A non-digit name goes to getent (getpwnam only).
    boolean digits = name.chars().allMatch(ch -> ch >= '0' && ch <= '9');
    Optional<String> out =
        digits ? run("id", "-u", "--", name) : run("getent", "passwd", "--", name);
    if (out.isEmpty()) {
      return OptionalInt.empty();
    }
    String text = out.get().split("\n", -1)[0].trim();
    try {
      if (digits) {
        long v = Long.parseLong(text);
        if (v == Long.parseLong(name) && getpwuid(v).isEmpty()) {
          return OptionalInt.empty();
        }
        return OptionalInt.of((int) v);
      }
      String[] f = text.split(":", -1);
      return f.length >= 3 && f[0].equals(name)
          ? OptionalInt.of((int) Long.parseLong(f[2]))
          : OptionalInt.empty();
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** Runs a lookup command; its output, or empty on a failure, a non-zero exit or a timeout. */
  private static Optional<String> run(String... cmd) {
    Process p = null;
    try {
      p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(false).start();
      p.getOutputStream().close();
      if (!p.waitFor(LOOKUP_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return Optional.empty();
      }
      return Optional.of(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } finally {
      if (p != null) {
        p.destroyForcibly();
      }
    }
  }
}
