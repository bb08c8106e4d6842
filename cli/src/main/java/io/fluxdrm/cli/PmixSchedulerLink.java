package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.DvmJobScheduler;
import io.fluxdrm.bridge.dvm.PmixSchedulerProvider;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fluxdrm bridge --pmix-scheduler --dvm-uri URI} (issue 16, D435): the bridge as the PMIx
 * scheduler of a PRRTE DVM. The DVM's Flux job holds the DVM's head node ({@code --dvm-host}); its
 * shell plugin and {@link PmixAllocator} serve what PRRTE forwards, through the {@link
 * PmixSchedulerProvider} of the JDK 22+ module {@code pmix-native}, found at run time: this module
 * is built for JDK 17 and cannot link it.
 */
final class PmixSchedulerLink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PmixSchedulerLink.class);

  /** The first JDK with the final FFM API. */
  static final int MIN_JDK = 22;

  private final AutoCloseable scheduler;

  private PmixSchedulerLink(AutoCloseable scheduler) {
    this.scheduler = scheduler;
  }

  /**
   * The provider, or a clear error saying what is missing (checked before anything starts).
   *
   * @param feature the running JDK's feature version
   * @param loader where to look
   * @return the provider
   */
  static PmixSchedulerProvider provider(int feature, ClassLoader loader) {
    if (feature < MIN_JDK) {
      throw new CliError(
          "--pmix-scheduler: needs a JDK "
              + MIN_JDK
              + " or later (this is JDK "
              + feature
              + "): run bin/fluxdrm with JAVA_HOME set to one, e.g. a Temurin 25 JDK");
    }
    Optional<PmixSchedulerProvider> p =
        ServiceLoader.load(PmixSchedulerProvider.class, loader).findFirst();
    if (p.isEmpty()) {
      throw new CliError(
          "--pmix-scheduler: the pmix-native module is not on the class path (build it on JDK "
              + MIN_JDK
              + "+: mvn -B -Ppmix-native package -DskipTests; bin/fluxdrm then adds"
              + " pmix-native/target/fluxdrm-pmix-native-*.jar)");
    }
    return p.get();
  }

  /** The DVM's job: one exclusive node, the DVM's head, where {@code prte} runs. */
  static ObjectNode jobspec(String head) {
    ObjectNode js = DvmLink.jobspec();
    ((ObjectNode) js.get("tasks").get(0)).putArray("command").add("prte");
    ((ObjectNode) js.get("attributes").get("system"))
        .putObject("constraints")
        .putArray("hostlist")
        .add(head);
    return js;
  }

  static PmixSchedulerLink start(
      PmixSchedulerProvider provider,
      Reactor reactor,
      FluxHandle schedHub,
      JobManager jm,
      Path stateDir,
      int uid,
      String head,
      String dvmUri)
      throws InterruptedException {
    long id = DvmLink.dvmJob(jm, stateDir, uid, jobspec(head));
    ResourceSet r = jm.jobR(id).orElseThrow();
    if (!r.nodelist().toString().equals(head)) {
      throw new CliError(
          "the DVM's job "
              + JobId.f58(id)
              + " holds "
              + r.nodelist()
              + " (expected: --dvm-host "
              + head
              + ", where prte runs)");
    }
    ShellPlugin shell = ShellPlugin.create(id, uid, r);
    Daemon.await(shell.start(schedHub), "the DVM job's shell", "");
    PmixAllocator allocator = PmixAllocator.create(shell);
    Daemon.await(allocator.start(schedHub), allocator.serviceName(), "");
    return startProvider(provider, reactor, allocator, dvmUri, "the DVM's job " + JobId.f58(id), r);
  }

  /**
   * The PMIx scheduler of a DVM that runs as the running job {@code id} of a real flux-core
   * instance reached by {@code flux} (D472): the job's R is read from flux-core ({@code
   * job-info.lookup}), its shell plugin's requests go to flux-core's job manager, whose realloc
   * jobtap plugin speaks the same protocol as fluxdrm's job manager (D470); nothing is registered
   * on the broker but the allocator's {@code <uid>-pmix-<id>} service.
   */
  static PmixSchedulerLink startFluxJob(
      PmixSchedulerProvider provider,
      Reactor reactor,
      FluxHandle flux,
      long id,
      int uid,
      String dvmUri)
      throws InterruptedException {
    ResourceSet r = ReallocRequests.jobR(ReallocClient.lookup(flux, id, "R"));
    ShellPlugin shell = ShellPlugin.create(id, uid, r);
    reactor.runAndWait(() -> shell.attach(flux), Duration.ofSeconds(10));
    PmixAllocator allocator = PmixAllocator.create(shell);
    Daemon.await(allocator.start(flux), allocator.serviceName(), "");
    return startProvider(provider, reactor, allocator, dvmUri, "the Flux job " + JobId.f58(id), r);
  }

  private static PmixSchedulerLink startProvider(
      PmixSchedulerProvider provider,
      Reactor reactor,
      PmixAllocator allocator,
      String dvmUri,
      String what,
      ResourceSet r)
      throws InterruptedException {
    AutoCloseable s;
    try {
      s =
          provider.start(
              dvmUri,
              allocator::allocationRequest,
              DvmJobScheduler.handBack(() -> allocator),
              reactor::execute,
              Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new CliError("--pmix-scheduler: " + e.getMessage());
    }
    LOG.info(
        "{}: {}; PMIx scheduler up: start prte --prtemca ras_pmix_system_scheduler 1"
            + " --prtemca prte_elastic_mode 1 --report-uri {} now",
        what,
        r.summary(),
        dvmUri.startsWith("file:") ? dvmUri.substring("file:".length()) : dvmUri);
    return new PmixSchedulerLink(s);
  }

  @Override
  public void close() {
    try {
      scheduler.close();
    } catch (Exception e) {
      LOG.warn("PMIx scheduler: {}", e.toString());
    }
  }
}
