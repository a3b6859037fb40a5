package org.itsrt.stack;

/** The program of {@link ClassDataSharingTest}: loads a class of its own and a few of the JDK's. */
public final class CdsProgram {

    private CdsProgram() {}

    public static void main(String[] args) {
        java.util.concurrent.ConcurrentSkipListMap<String, String> map =
                new java.util.concurrent.ConcurrentSkipListMap<>();
        map.put("program", "ran");
        System.out.println("program " + map.get("program"));
    }
}
