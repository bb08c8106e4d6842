package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The allocation a spawn carries ({@code PMIX_SPAWN_ALLOC}, PRRTE §7.4.3 Flow-of-Control): a data
 * array of info whose {@code PMIX_ALLOC_REQ_DIRECTIVE} names the directive and whose other infos
 * are the allocation request. Which directives a spawn may carry is the consumer's rule. Decision
 * D546.
 *
 * @param directive the directive
 * @param infos the request's infos, in order, without the directive
 */
public record SpawnAllocation(AllocDirective directive, List<Info> infos) {

  /**
   * {@code PMIX_SPAWN_ALLOC}; the strings of openpmix #4191 are not observable, so this one is
   * provisional (D357) and not in the {@code PmixKey} catalog.
   */
  public static final String KEY = "pmix.spawn.alloc";

  /** {@code PMIX_ALLOC_REQ_DIRECTIVE}, type {@code PMIX_ALLOC_DIRECTIVE}; provisional (D357). */
  public static final String DIRECTIVE_KEY = "pmix.alloc.reqdir";

  /** Copies the list. */
  public SpawnAllocation {
    infos = List.copyOf(infos);
  }

  /**
   * The spawn allocation among a spawn's job infos, if one is there (the last one, if several).
   *
   * @param jobInfos the spawn's job infos
   * @return the allocation
   * @throws RequestException (BAD_PARAM) for one that does not read
   */
  public static Optional<SpawnAllocation> find(List<Info> jobInfos) {
    Info found = null;
    for (Info i : jobInfos) {
      if (i.key().equals(KEY)) {
        found = i;
      }
    }
    return found == null ? Optional.empty() : Optional.of(parse(found));
  }

  /**
   * Reads a {@code PMIX_SPAWN_ALLOC} info.
   *
   * @param spawnAlloc the info
   * @return the allocation
   * @throws RequestException (BAD_PARAM) for a value that is not an info array, a directive that is
   *     missing, of another type or unknown
   */
  public static SpawnAllocation parse(Info spawnAlloc) {
    if (!spawnAlloc.isInfoArray()) {
      throw bad(KEY, "PMIX_SPAWN_ALLOC: not a data array of info");
    }
    AllocDirective dir = null;
    List<Info> req = new ArrayList<>();
    for (Info i : spawnAlloc.infosValue()) {
      if (i.key().equals(DIRECTIVE_KEY)) {
        if (i.type() != PmixDataType.PMIX_ALLOC_DIRECTIVE) {
          throw bad(
              DIRECTIVE_KEY,
              "PMIX_ALLOC_REQ_DIRECTIVE: " + i.type() + " (expected: PMIX_ALLOC_DIRECTIVE)");
        }
        dir = AllocDirective.of((Integer) i.value()).orElse(null);
        if (dir == null) {
          throw bad(DIRECTIVE_KEY, "PMIX_ALLOC_REQ_DIRECTIVE " + i.value() + ": unknown directive");
        }
      } else {
        req.add(i);
      }
    }
    if (dir == null) {
      throw bad(KEY, "PMIX_SPAWN_ALLOC without PMIX_ALLOC_REQ_DIRECTIVE");
    }
    return new SpawnAllocation(dir, req);
  }

  /** The request the infos carry, typed. */
  public AllocationRequest request() {
    return AllocationRequest.parse(infos);
  }

  /** The {@code PMIX_SPAWN_ALLOC} info back: the directive first, then the request's infos. */
  public Info toInfo() {
    List<Info> all = new ArrayList<>();
    all.add(new Info(DIRECTIVE_KEY, PmixDataType.PMIX_ALLOC_DIRECTIVE, directive.code()));
    all.addAll(infos);
    return new Info(KEY, PmixDataType.PMIX_DATA_ARRAY, all);
  }

  /** {@link #toInfo()} as the one-element list a spawn's job infos hold. */
  public List<Info> toInfos() {
    return List.of(toInfo());
  }

  private static RequestException bad(String key, String message) {
    return RequestException.whole(PmixStatus.PMIX_ERR_BAD_PARAM, key, message);
  }
}
