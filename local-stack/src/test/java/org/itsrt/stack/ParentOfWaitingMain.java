package org.itsrt.stack;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A parent for {@link ChildJvmTest}: starts {@link WaitingMain} as a {@link ChildJvm} under the
 * folder given as argument, prints the child's pid and sleeps until it is killed.
 */
public final class ParentOfWaitingMain {

    private ParentOfWaitingMain() {}

    public static void main(String[] args) throws InterruptedException {
        ChildJvm child = ChildJvmTest.startWaitingMain(Path.of(args[0]), Duration.ofSeconds(60));
        System.out.println("child " + child.pid());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
