package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.itsrt.probe.report.Charts;
import org.w3c.dom.Element;

/** Checks that a plot was written as a real PNG and a well-formed SVG of the charts' fixed size. */
public final class PlotFiles {

    private PlotFiles() {}

    public static void assertValid(Path dir, String base) throws Exception {
        Path png = dir.resolve(base + ".png");
        Path svg = dir.resolve(base + ".svg");
        assertThat(png).isRegularFile();
        assertThat(svg).isRegularFile();

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("%s decodes as an image", png).isNotNull();
        assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
        assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);

        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        // The SVG names the W3C DTD; parsing must not try to fetch it.
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setNamespaceAware(true);
        Element root;
        try (var in = Files.newInputStream(svg)) {
            root = factory.newDocumentBuilder().parse(in).getDocumentElement();
        }
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(pixels(root.getAttribute("width"))).isEqualTo(Charts.WIDTH);
        assertThat(pixels(root.getAttribute("height"))).isEqualTo(Charts.HEIGHT);
    }

    private static double pixels(String length) {
        return Double.parseDouble(length.endsWith("px") ? length.substring(0, length.length() - 2) : length);
    }
}
