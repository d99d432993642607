package io.queryapigate.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Summarises async-profiler's collapsed stacks ({@code [thread tid=N];root;...;leaf count}, recorded with the
 * {@code threads} option) into buckets: where each sample (or allocated byte) went.
 *
 * <p>A sample of the event-log writer thread ({@code qag-event-writer}) is the event writer's, whatever it runs; a
 * sample of a thread without Java frames is the JVM's (garbage collection, the JIT compilers, other VM threads). Any
 * other sample goes to the component of its leaf-most Java frame that belongs to a known package, walking from the
 * leaf towards the root past the JDK, native and kernel frames: a socket write Jetty makes is Jetty's, a
 * {@code HashMap.get} that Jackson calls is Jackson's. Samples with no known frame are "JDK and other".
 */
final class Stacks {
    static final String EVENT_WRITER = "event writer (qag-event-writer thread)";
    static final String GC = "JVM: garbage collection";
    static final String JIT = "JVM: JIT compilers";
    static final String VM = "JVM: other VM threads";
    static final String OTHER = "JDK and other";
    static final String VIRTUAL = "virtual threads (scheduler, timers, pollers)";

    /** Package prefixes (dotted) to buckets; the first match wins. */
    static final Map<String, String> PACKAGES = packages();

    /** JDK frames under the known prefixes that any blocked thread runs (AQS parks through them): passed over. */
    static final List<String> PASS = List.of("java.util.concurrent.ForkJoinPool.managedBlock",
            "java.util.concurrent.ForkJoinPool.unmanagedBlock", "java.util.concurrent.ForkJoinPool.compensatedBlock");

    private static final Pattern THREAD = Pattern.compile("^\\[(.*) tid=\\d+\\]$");
    private static final Pattern GC_FRAME = Pattern.compile(
            "Collect|Scavenge|SerialHeap|DefNew|Tenured|G1|ParallelGC|PSPromotion|MarkSweep|GCTask|ZGC|Shenandoah");

    private Stacks() {}

    private static Map<String, String> packages() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("io.queryapigate.", "QueryAPIGate (io.queryapigate)");
        // the virtual threads' machinery: mounting, parking and unparking, the scheduler's timers, the I/O pollers
        m.put("java.lang.VirtualThread", VIRTUAL);
        m.put("jdk.internal.vm.Continuation", VIRTUAL);
        m.put("java.util.concurrent.ForkJoin", VIRTUAL);
        m.put("java.util.concurrent.DelayScheduler", VIRTUAL);
        m.put("sun.nio.ch.Poller", VIRTUAL);
        m.put("sun.nio.ch.EPollPoller", VIRTUAL);
        m.put("com.mysql.", "Connector/J (com.mysql)");
        m.put("com.zaxxer.hikari.", "HikariCP");
        m.put("org.eclipse.jetty.", "Jetty");
        m.put("org.glassfish.jersey.", "Jersey and HK2");
        m.put("org.glassfish.hk2.", "Jersey and HK2");
        m.put("org.jvnet.hk2.", "Jersey and HK2");
        m.put("jakarta.ws.rs.", "Jersey and HK2");
        m.put("com.fasterxml.jackson.", "Jackson");
        m.put("ch.qos.logback.", "logging (logback, slf4j)");
        m.put("org.slf4j.", "logging (logback, slf4j)");
        m.put("com.codahale.metrics.", "metrics (Dropwizard Metrics)");
        m.put("io.dropwizard.metrics.", "metrics (Dropwizard Metrics)");
        m.put("io.dropwizard.", "Dropwizard");
        m.put("org.sqlite.", "store (SQLite, Jdbi)");
        m.put("org.jdbi.", "store (SQLite, Jdbi)");
        m.put("org.hibernate.validator.", "validation");
        m.put("jakarta.validation.", "validation");
        return m;
    }

    /** One line of collapsed output. frames: root first, without the thread frame. */
    record Stack(String thread, List<String> frames, long value) {}

    static Stack parse(String line) {
        int sp = line.lastIndexOf(' ');
        if (sp < 0) {
            return null;
        }
        long value;
        try {
            value = Long.parseLong(line.substring(sp + 1).trim());
        } catch (NumberFormatException e) {
            return null;
        }
        List<String> frames = new ArrayList<>(Arrays.asList(line.substring(0, sp).split(";")));
        String thread = null;
        if (!frames.isEmpty()) {
            Matcher m = THREAD.matcher(frames.get(0));
            if (m.matches()) {
                thread = m.group(1);
                frames.remove(0);
            }
        }
        return new Stack(thread, frames, value);
    }

    /** A kernel frame, or the allocated type at the top of an allocation sample (async-profiler's suffixes). */
    static boolean annotated(String frame) {
        return frame.endsWith("_[k]") || frame.endsWith("_[i]") || frame.endsWith("_[0]")
                || frame.endsWith("_[1]") || frame.endsWith("_[j]");
    }

    /** A Java method frame (package/Class.method or Class.method), not a native, C++ or kernel one. */
    static boolean java(String frame) {
        return !annotated(frame) && !frame.contains("::") && !frame.startsWith("[") && !frame.contains(".so")
                && frame.indexOf('.') > 0 && !frame.contains(" ");
    }

    static String dotted(String frame) {
        return frame.replace('/', '.');
    }

    static String bucket(Stack s) {
        if (s.thread() != null && s.thread().startsWith("qag-event-writer")) {
            return EVENT_WRITER;
        }
        boolean anyJava = false;
        for (String f : s.frames()) {
            if (java(f)) {
                anyJava = true;
                break;
            }
        }
        if (!anyJava) {
            String t = s.thread() == null ? "" : s.thread();
            if (t.startsWith("C1 Compiler") || t.startsWith("C2 Compiler")
                    || s.frames().stream().anyMatch(f -> f.startsWith("CompileBroker::"))) {
                return JIT;
            }
            if (t.contains("GC") || s.frames().stream().anyMatch(f -> GC_FRAME.matcher(f).find())) {
                return GC;
            }
            return VM;
        }
        for (int i = s.frames().size() - 1; i >= 0; i--) {
            String f = s.frames().get(i);
            if (!java(f)) {
                continue;
            }
            String d = dotted(f);
            if (PASS.stream().anyMatch(d::startsWith)) {
                continue;
            }
            for (Map.Entry<String, String> e : PACKAGES.entrySet()) {
                if (d.startsWith(e.getKey())) {
                    return e.getValue();
                }
            }
        }
        return OTHER;
    }

    /** The leaf-most Java frame (dotted), or the leaf itself when there is none. */
    static String selfFrame(Stack s) {
        for (int i = s.frames().size() - 1; i >= 0; i--) {
            if (java(s.frames().get(i))) {
                return dotted(s.frames().get(i));
            }
        }
        return s.frames().isEmpty() ? "?" : s.frames().get(s.frames().size() - 1);
    }

    /** Shares by bucket and by self frame, and how much ended in the kernel. */
    record Summary(long total, Map<String, Long> buckets, Map<String, Long> selfFrames, long kernelLeaf) {
        double share(String bucket) {
            return total == 0 ? Double.NaN : buckets.getOrDefault(bucket, 0L) / (double) total;
        }
    }

    static Summary summarize(List<String> lines) {
        long total = 0, kernel = 0;
        Map<String, Long> buckets = new LinkedHashMap<>(), self = new LinkedHashMap<>();
        for (String l : lines) {
            Stack s = parse(l);
            if (s == null || s.value() <= 0) {
                continue;
            }
            total += s.value();
            buckets.merge(bucket(s), s.value(), Long::sum);
            self.merge(selfFrame(s), s.value(), Long::sum);
            if (!s.frames().isEmpty() && s.frames().get(s.frames().size() - 1).endsWith("_[k]")) {
                kernel += s.value();
            }
        }
        return new Summary(total, sortDesc(buckets), sortDesc(self), kernel);
    }

    static Map<String, Long> sortDesc(Map<String, Long> m) {
        Map<String, Long> out = new LinkedHashMap<>();
        m.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
