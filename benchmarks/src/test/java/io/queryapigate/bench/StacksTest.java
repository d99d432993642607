package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class StacksTest {
    private static String bucket(String line) {
        return Stacks.bucket(Stacks.parse(line));
    }

    @Test
    void parsesThreadFramesAndCount() {
        Stacks.Stack s = Stacks.parse("[qtp-12 tid=77];java/lang/Thread.run;org/eclipse/jetty/io/X.y 42");
        assertThat(s.thread()).isEqualTo("qtp-12");
        assertThat(s.frames()).containsExactly("java/lang/Thread.run", "org/eclipse/jetty/io/X.y");
        assertThat(s.value()).isEqualTo(42);
        assertThat(Stacks.parse("no count here")).isNull();
    }

    @Test
    void theEventWriterThreadIsItsOwnBucket() {
        assertThat(bucket("[qag-event-writer tid=9];java/lang/Thread.run;io/queryapigate/events/EventLog.loop;"
                + "org/sqlite/core/NativeDB.step 5")).isEqualTo(Stacks.EVENT_WRITER);
    }

    @Test
    void theLeafMostKnownJavaFrameWinsPastJdkNativeAndKernelFrames() {
        assertThat(bucket("[ForkJoinPool-1-worker-1 tid=3];java/lang/Thread.run;org/eclipse/jetty/server/Server.handle;"
                + "io/queryapigate/api/QueryResource.run;com/mysql/cj/NativeSession.execSQL;"
                + "sun/nio/ch/NioSocketImpl.read;read;entry_SYSCALL_64_after_hwframe_[k] 1"))
                .isEqualTo("Connector/J (com.mysql)");
        assertThat(bucket("[t tid=3];org/eclipse/jetty/server/Server.handle;io/queryapigate/api/Json.write;"
                + "com/fasterxml/jackson/core/json/UTF8JsonGenerator.writeString;java/util/HashMap.get 1"))
                .isEqualTo("Jackson");
        assertThat(bucket("[t tid=3];java/lang/Thread.run;java/util/HashMap.get 1")).isEqualTo(Stacks.OTHER);
        assertThat(bucket("[ForkJoinPool-1-delayScheduler tid=3];java/lang/Thread.run;"
                + "java/util/concurrent/DelayScheduler.loop;jdk/internal/misc/Unsafe.park;do_futex_[k] 1"))
                .isEqualTo(Stacks.VIRTUAL);
        // a platform thread blocked in AQS parks through ForkJoinPool.unmanagedBlock: still its own code's
        assertThat(bucket("[AsyncAppender-Worker-x tid=8];ch/qos/logback/core/AsyncAppenderBase$Worker.run;"
                + "java/util/concurrent/ArrayBlockingQueue.take;java/util/concurrent/ForkJoinPool.unmanagedBlock;"
                + "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionNode.block;"
                + "jdk/internal/misc/Unsafe.park 2")).isEqualTo("logging (logback, slf4j)");
        // a virtual thread's own code wins over the scheduler frames under it
        assertThat(bucket("[ForkJoinPool-1-worker-1 tid=3];java/util/concurrent/ForkJoinPool.runWorker;"
                + "java/lang/VirtualThread.run;org/eclipse/jetty/server/Server.handle;java/util/HashMap.get 1"))
                .isEqualTo("Jetty");
        // an allocation sample: the allocated type on top is not the allocating code
        assertThat(bucket("[t tid=3];org/eclipse/jetty/io/ArrayByteBufferPool.acquire;"
                + "com/fasterxml/jackson/core/Foo_[i] 4096")).isEqualTo("Jetty");
    }

    @Test
    void threadsWithoutJavaFramesAreTheJvms() {
        assertThat(bucket("[VM Thread tid=2];clone3;start_thread;VMThread::run;VM_SerialCollectForAllocation::doit;"
                + "DefNewGeneration::collect 3")).isEqualTo(Stacks.GC);
        assertThat(bucket("[C2 CompilerThre tid=4];clone3;CompileBroker::compiler_thread_loop;"
                + "C2Compiler::compile_method 3")).isEqualTo(Stacks.JIT);
        assertThat(bucket("[VM Periodic Tas tid=5];clone3;WatcherThread::run 1")).isEqualTo(Stacks.VM);
    }

    @Test
    void summaryGivesSharesKernelLeavesAndSelfFrames() {
        Stacks.Summary s = Stacks.summarize(List.of(
                "[qag-event-writer tid=9];java/lang/Thread.run;org/sqlite/core/NativeDB.step 10",
                "[w tid=3];org/eclipse/jetty/io/SocketChannelEndPoint.flush;sun/nio/ch/SocketDispatcher.write0;"
                        + "write;do_syscall_64_[k] 30",
                "[w tid=3];com/mysql/cj/protocol/a/NativeProtocol.read 60",
                "garbage"));
        assertThat(s.total()).isEqualTo(100);
        assertThat(s.share(Stacks.EVENT_WRITER)).isCloseTo(0.10, within(1e-9));
        assertThat(s.share("Jetty")).isCloseTo(0.30, within(1e-9));
        assertThat(s.kernelLeaf()).isEqualTo(30);
        assertThat(s.buckets().keySet()).first().isEqualTo("Connector/J (com.mysql)");
        assertThat(s.selfFrames()).containsEntry("sun.nio.ch.SocketDispatcher.write0", 30L);
    }
}
