package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * CPU and allocation profiles of a running QueryAPIGate with async-profiler 4.2 (Maven Central's
 * {@code tools.profiler:async-profiler:4.2:linux-x64}, shaded into this jar): its {@code libasyncProfiler.so} is
 * extracted to the run's directory and loaded into the gateway through the JDK's dynamic attach (what {@code asprof}
 * and jattach do: {@code VirtualMachine.loadAgentPath} with async-profiler's commands), so the profiled gateway is
 * the measured one, started without any agent option.
 *
 * <p>CPU: event {@code cpu} (perf_events) when a {@code check} of perf_events' {@code cpu-clock} passes in the
 * gateway, else {@code itimer} (async-profiler itself would silently fall back from {@code cpu}, so the harness
 * checks first and records which one ran). Allocations: event {@code alloc} (TLAB-driven sampling), summed in bytes.
 * Each writes a flame graph ({@code .html}) and collapsed stacks ({@code .collapsed}) into the results folder.
 */
final class Profiler {
    static final String LIBRARY = "linux-x64/libasyncProfiler.so";
    /** 10 ms, async-profiler's default: perf_events at 1 ms took 40% of the gateway's throughput here, at 10 ms 12%. */
    static final String CPU_INTERVAL_NS = "10000000";

    interface Load {
        Wrk.Result run(int seconds) throws Exception;
    }

    private final Path work;
    private final Path out;
    private Path library;

    Profiler(Path work, Path out) {
        this.work = work;
        this.out = out;
    }

    /** The agent library, extracted from this jar once. */
    Path library() throws IOException {
        if (library == null) {
            Path dir = Files.createDirectories(work.resolve("async-profiler"));
            Path so = dir.resolve("libasyncProfiler.so");
            try (InputStream in = Profiler.class.getClassLoader().getResourceAsStream(LIBRARY)) {
                if (in == null) {
                    throw new IllegalStateException(LIBRARY + " is not on the classpath (the async-profiler"
                            + " dependency of the benchmarks module)");
                }
                Files.copy(in, so, StandardCopyOption.REPLACE_EXISTING);
            }
            library = so;
        }
        return library;
    }

    /** Runs one async-profiler command in the gateway; its text output (when it writes one) goes to file. */
    void command(long pid, String command) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            vm.loadAgentPath(library().toString(), command);
        } finally {
            vm.detach();
        }
    }

    /** "cpu" when perf_events work in the gateway's process, else "itimer"; why, in the second element. */
    String[] cpuEvent(long pid) throws Exception {
        Path f = work.resolve("async-profiler/check-" + System.nanoTime() + ".txt");
        String detail;
        try {
            command(pid, "check,event=cpu-clock,file=" + f);
            detail = Files.exists(f) ? Files.readString(f).strip() : "(no answer)";
        } catch (Exception e) {
            detail = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        if (detail.equals("OK")) {
            return new String[] {"cpu", "perf_events (event cpu, " + CPU_INTERVAL_NS + " ns interval)"};
        }
        return new String[] {"itimer", "itimer (perf_events unavailable: " + detail + ")"};
    }

    /**
     * One profile of the gateway under the load: started, the load run, stopped; writes
     * profile-NAME-KIND.collapsed and .html into the results folder and returns the results.jsonl line.
     */
    ObjectNode profile(Servers.JavaGateway g, String name, String kind, Load load, int seconds) throws Exception {
        long pid = g.pid();
        String event, engine;
        if (kind.equals("cpu")) {
            String[] e = cpuEvent(pid);
            event = e[0];
            engine = e[1];
        } else {
            event = "alloc";
            engine = "alloc (TLAB-driven sampling, bytes)";
        }
        Path collapsed = out.resolve("profile-" + name + "-" + kind + ".collapsed");
        Path html = out.resolve("profile-" + name + "-" + kind + ".html");
        Files.deleteIfExists(collapsed);
        Files.deleteIfExists(html);
        long logBefore = logSize(g);
        String start = "start,event=" + event + ",threads" + (kind.equals("cpu") ? ",interval=" + CPU_INTERVAL_NS : "");
        // the counter: samples for the CPU (each is one interval of CPU time), bytes for allocations
        String counter = kind.equals("cpu") ? "" : ",total";
        command(pid, start);
        Wrk.Result r;
        try {
            r = load.run(seconds);
        } finally {
            command(pid, "stop,collapsed" + counter + ",file=" + collapsed);
        }
        // the recorded samples stay until the next start: the flame graph of the same profile
        command(pid, "dump,flamegraph" + counter + ",title=QueryAPIGate " + name + " " + event + " "
                + Runner.CALLERS + " callers,file=" + html);
        List<String> lines = Files.exists(collapsed) ? Files.readAllLines(collapsed) : List.of();
        Stacks.Summary s = Stacks.summarize(lines);

        ObjectNode n = Results.line("profile");
        n.put("block", "profile");
        n.put("config", g.label());
        n.put("query", name);
        n.put("kind", kind);
        n.put("event", event);
        n.put("engine", engine);
        n.put("agent", "async-profiler 4.2 (dynamic attach: " + start + ")");
        n.put("seconds", seconds);
        n.put("requests", r.requests());
        n.put("rps", Tpcc.round3(r.rps()));
        n.put("non_2xx", r.non2xx());
        n.put("total", s.total());
        n.put("unit", kind.equals("cpu") ? "samples" : "bytes");
        n.put("kernel_leaf_share", s.total() == 0 ? 0 : Tpcc.round3(s.kernelLeaf() / (double) s.total()));
        ObjectNode b = n.putObject("buckets");
        s.buckets().forEach((k, v) -> b.put(k, Tpcc.round3(v / (double) Math.max(1, s.total()))));
        ArrayNode top = n.putArray("top_self_frames");
        int i = 0;
        for (Map.Entry<String, Long> e : s.selfFrames().entrySet()) {
            if (i++ >= 15) {
                break;
            }
            ObjectNode t = top.addObject();
            t.put("frame", e.getKey());
            t.put("share", Tpcc.round3(e.getValue() / (double) Math.max(1, s.total())));
        }
        n.put("collapsed", collapsed.getFileName().toString());
        n.put("html", html.getFileName().toString());
        n.putPOJO("agent_messages", agentMessages(g, logBefore));
        return n;
    }

    private static long logSize(Servers.JavaGateway g) {
        try {
            return Files.size(g.dir().resolve("gateway.log"));
        } catch (IOException e) {
            return 0;
        }
    }

    /** async-profiler's warnings and errors, which it prints to the gateway's output. */
    private static List<String> agentMessages(Servers.JavaGateway g, long from) {
        List<String> out = new ArrayList<>();
        try {
            byte[] all = Files.readAllBytes(g.dir().resolve("gateway.log"));
            String tail = new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from));
            tail.lines().filter(l -> l.startsWith("[WARN]") || l.startsWith("[ERROR]")
                    || l.contains("JVM TI agent")).limit(10).forEach(out::add);
        } catch (IOException e) {
            out.add(e.toString());
        }
        return out;
    }
}
