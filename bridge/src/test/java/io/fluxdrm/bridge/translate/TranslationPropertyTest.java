package io.fluxdrm.bridge.translate;

import static io.fluxdrm.bridge.translate.Fixtures.*;
import static io.fluxdrm.pmix.PmixKey.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.jobspec.JobspecValidator;
import io.fluxdrm.jobspec.Level;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.schemas.Schemas;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random valid requests, from printed seeds (set -Dtranslate.seed=N to replay one): every grow and
 * release translates to a sched.realloc whose payload meets its schema and whose spec_add /
 * spec_sub are valid version 1 jobspecs; a release's R lies within the job's R.
 */
class TranslationPropertyTest {

  static Stream<Long> seeds() {
    String fixed = System.getProperty("translate.seed");
    if (fixed != null && !fixed.isEmpty()) {
      return Stream.of(Long.parseLong(fixed));
    }
    return Stream.concat(LongStream.range(1, 21).boxed(), Stream.of(System.nanoTime()));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomValidRequest_alwaysV1ValidRealloc(long seed) {
    System.out.println("TranslationPropertyTest seed " + seed);
    SplittableRandom rng = new SplittableRandom(seed);
    int nodes = 2 + rng.nextInt(30);
    ResourceSet jobR =
        r(
            "0-" + (nodes - 1),
            IdSet.range(0, rng.nextInt(64)).toString(),
            "h[0-" + (nodes - 1) + "]");
    JobView view =
        new JobView(
            rng.nextLong(),
            jobR,
            null,
            Map.of("5", jobR.copyRanks(IdSet.range(nodes / 2, nodes - 1))));
    for (int step = 0; step < 200; step++) {
      AllocDirective d =
          List.of(AllocDirective.NEW, AllocDirective.EXTEND, AllocDirective.RELEASE)
              .get(rng.nextInt(3));
      List<Info> infos = d == AllocDirective.RELEASE ? release(rng, nodes) : grow(rng);
      Collections.shuffle(infos, new java.util.Random(rng.nextLong()));
      Translation t = RequestTranslator.translate(d, infos, view);
      assertThat(t)
          .as("seed %d step %d %s %s", seed, step, d, infos)
          .isInstanceOf(Translation.Realloc.class);
      var p = ((Translation.Realloc) t).payload();
      assertThat(Schemas.validate("sched.realloc-request", p)).isEmpty();
      String k = d == AllocDirective.RELEASE ? "spec_sub" : "spec_add";
      assertThat(JobspecValidator.validate(p.get(k), Level.V1)).as("%s %s", infos, p).isEmpty();
      assertThat(Long.toUnsignedString(view.jobId())).isEqualTo(p.get("job_id").asText());
      if (p.has("R")) {
        assertThat(ResourceSet.fromJson(p.get("R")).diff(jobR).isEmpty()).isTrue();
      }
    }
  }

  private static List<Info> grow(SplittableRandom rng) {
    List<Info> out = new ArrayList<>();
    boolean list = rng.nextBoolean();
    int listed = 1 + rng.nextInt(20);
    if (list) {
      String slots = rng.nextBoolean() ? "" : ":" + (1 + rng.nextInt(64));
      out.add(info(PMIX_ALLOC_NODE_LIST, "x[1-" + listed + "]" + slots));
    }
    if (!list || rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_NUM_NODES, 1 + rng.nextInt(list ? listed : 1000)));
    }
    boolean slotsGiven = list && out.get(0).stringValue().contains(":");
    if (!slotsGiven && rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_NUM_CPUS, 1 + rng.nextInt(100_000)));
    }
    if (rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_TIME, rng.nextInt(100) + ":" + rng.nextInt(60)));
    }
    if (rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_QUEUE, "q" + rng.nextInt(3)));
    }
    if (rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_EXCLUDE, "y" + rng.nextInt(9)));
    }
    if (rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_REQ_ID, "r" + rng.nextInt(1000)));
    }
    if (rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_SHARE, rng.nextBoolean()));
    }
    return out;
  }

  private static List<Info> release(SplittableRandom rng, int nodes) {
    List<Info> out = new ArrayList<>();
    switch (rng.nextInt(3)) {
      case 0 -> out.add(info(PMIX_ALLOC_NUM_NODES, 1 + rng.nextInt(nodes - 1)));
      case 1 -> out.add(info(PMIX_ALLOC_ID, "5"));
      default -> {
        int lo = 1 + rng.nextInt(nodes - 1);
        int hi = lo + rng.nextInt(nodes - lo);
        out.add(info(PMIX_ALLOC_NODE_LIST, "h[" + lo + "-" + hi + "]"));
      }
    }
    if (rng.nextBoolean()) {
      out.add(info(PMIX_ALLOC_REQ_ID, "r" + rng.nextInt(1000)));
    }
    return out;
  }
}
