package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.service.Service;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A small service used by transport tests: echo, whoami, a stream, disconnect notes. */
public final class EchoService {
  public final List<String> disconnects = new CopyOnWriteArrayList<>();

  public Service build(String name) {
    return Service.builder(name)
        .on("echo", r -> r.respond(r.json()))
        .on(
            "hello",
            r ->
                r.respond(
                    Json.object()
                        .<com.fasterxml.jackson.databind.node.ObjectNode>set("echo", r.json())
                        .put("from", "raw-python")))
        .on(
            "whoami",
            r ->
                r.respond(
                    Json.object()
                        .put("userid", Integer.toUnsignedLong(r.credentials().userid()))
                        .put("rolemask", r.credentials().rolemask())
                        .put("routes", r.message().routes().size())))
        .onStreaming(
            "count",
            r -> {
              int to = r.json().path("to").asInt();
              for (int i = 1; i <= to; i++) {
                r.respond(Json.object().put("i", i));
              }
              r.end();
            })
        .onDisconnect(disconnects::add)
        .build();
  }
}
