package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.JobIdMap;
import io.fluxdrm.sched.SchedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a standalone scheduler remembers of running jobs: each job's current R (a grown job's R
 * includes its grants) and the next {@code alloc_id}, so that a hello from a restarted job manager,
 * or from the same job manager after the scheduler restarted, rebuilds the allocations.
 *
 * <p>In memory only, or also in a directory ({@code --state-dir}): one file {@code <dothex>.R.json}
 * per job and {@code next-alloc-id}, each written to a temporary file and moved into place.
 *
 * <p>This is the {@link RStore} of a standalone scheduler; {@link KvsRStore} is the attached one.
 */
public final class StateStore implements RStore {
  private static final Logger LOG = LoggerFactory.getLogger(StateStore.class);
  private static final String SUFFIX = ".R.json";
  private static final String NEXT_ALLOC_ID = "next-alloc-id";

  private final Path dir;
  private final Map<Long, ResourceSet> jobs = new JobIdMap<>();
  private long nextAllocId = 1;

  private StateStore(Path dir) {
    this.dir = dir;
  }

  /** A store that lives in memory only. */
  public static StateStore inMemory() {
    return new StateStore(null);
  }

  /**
   * A store kept in {@code dir} (created when missing), loaded from what it holds.
   *
   * @throws SchedException naming the file that cannot be read or parsed
   */
  public static StateStore open(Path dir) {
    StateStore s = new StateStore(dir);
    try {
      Files.createDirectories(dir);
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
        for (Path f : files) {
          s.load(f);
        }
      }
      Path next = dir.resolve(NEXT_ALLOC_ID);
      if (Files.exists(next)) {
        String text = Files.readString(next, StandardCharsets.UTF_8).trim();
        try {
          s.nextAllocId = Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
          throw new SchedException(
              "state-dir: " + NEXT_ALLOC_ID + ": \"" + text + "\" (expected: an unsigned integer)");
        }
      }
    } catch (IOException e) {
      throw new SchedException("state-dir: " + e.getMessage());
    }
    return s;
  }

  private void load(Path f) throws IOException {
    String name = f.getFileName().toString();
    JsonNode doc;
    try {
      doc = Json.mapper().readTree(Files.readAllBytes(f));
    } catch (IOException e) {
      throw new SchedException("state-dir: " + name + ": not JSON (expected: {\"id\", \"R\"})");
    }
    JsonNode id = doc.get("id");
    JsonNode r = doc.get("R");
    if (id == null || !id.isIntegralNumber() || r == null) {
      throw new SchedException("state-dir: " + name + ": (expected: {\"id\": integer, \"R\": R})");
    }
    try {
      jobs.put(id.bigIntegerValue().longValue(), ResourceSet.fromJson(r));
    } catch (RsetException e) {
      throw new SchedException("state-dir: " + name + ": R: " + e.getMessage());
    }
  }

  /** The R last stored for a job. */
  public Optional<ResourceSet> get(long id) {
    return Optional.ofNullable(jobs.get(id));
  }

  @Override
  public CompletableFuture<ResourceSet> read(long id) {
    ResourceSet r = jobs.get(id);
    return r != null
        ? CompletableFuture.completedFuture(r)
        : CompletableFuture.failedFuture(
            new RpcException(Errno.ENOENT, "no R known for job " + JobId.f58(id)));
  }

  @Override
  public CompletableFuture<Void> write(long id, ResourceSet r) {
    put(id, r);
    return CompletableFuture.completedFuture(null);
  }

  /** Number of jobs held. */
  public int size() {
    return jobs.size();
  }

  /** The first {@code alloc_id} a scheduler started on this store hands out. */
  public long nextAllocId() {
    return nextAllocId;
  }

  /** Records a job's current R. */
  public void put(long id, ResourceSet r) {
    if (r.equals(jobs.put(id, r))) {
      return;
    }
    if (dir != null) {
      ObjectNode o = Json.object();
      Payloads.putU64(o, "id", id);
      o.set("R", r.toJson());
      write(JobId.dothex(id) + SUFFIX, o.toString() + "\n");
    }
  }

  /** Forgets a job that holds nothing any more. */
  public void remove(long id) {
    if (jobs.remove(id) != null && dir != null) {
      try {
        Files.deleteIfExists(dir.resolve(JobId.dothex(id) + SUFFIX));
      } catch (IOException e) {
        LOG.error("state-dir: cannot remove the R of job {}: {}", JobId.f58(id), e.getMessage());
      }
    }
  }

  /** Records the next {@code alloc_id}. */
  public void nextAllocId(long next) {
    if (next != nextAllocId) {
      nextAllocId = next;
      if (dir != null) {
        write(NEXT_ALLOC_ID, Long.toUnsignedString(next) + "\n");
      }
    }
  }

  private void write(String name, String text) {
    Path target = dir.resolve(name);
    Path tmp = dir.resolve(name + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("state-dir: cannot write " + name, e);
    }
  }
}
