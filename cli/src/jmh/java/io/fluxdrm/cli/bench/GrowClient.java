package io.fluxdrm.cli.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.shell.ShellPlugin;
import java.util.concurrent.TimeUnit;

/**
 * The application side the grow benchmarks share: one grow of one exclusive node, through the
 * shell's Java API ({@code api=java}) or its {@code <uid>-shell-<f58>.realloc} RPC ({@code
 * api=rpc}), and the unmeasured shrink that gives the node back.
 */
final class GrowClient {
  private final ShellPlugin shell;
  private final FluxHandle app;
  private final String api;
  private final ObjectNode spec = Jobspecs.nodes(1);
  private final String topic;
  private final ObjectNode growPayload = Json.object();
  private Object last;

  /**
   * @param shell the job's shell plugin, started
   * @param app the application's handle, for {@code api=rpc}
   * @param api {@code java} or {@code rpc}
   */
  GrowClient(ShellPlugin shell, FluxHandle app, String api) {
    this.shell = shell;
    this.app = app;
    this.api = api;
    this.topic = shell.serviceName() + ".realloc";
    growPayload.set("spec_add", spec);
  }

  /** One grow; returns the {@link io.fluxdrm.shell.Answer} or the RPC response. */
  Object grow() throws Exception {
    if (api.equals("java")) {
      last = shell.realloc(spec, null, null).get(10, TimeUnit.SECONDS);
    } else {
      last = app.rpc(topic, growPayload).get(10, TimeUnit.SECONDS);
    }
    return last;
  }

  /** Shrinks the node the last grow added away and waits for its release. */
  void shrinkBack() throws Exception {
    Jobspecs.shrink(shell, Jobspecs.added(last));
  }
}
