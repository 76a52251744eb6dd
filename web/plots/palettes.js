// The four colour maps of the plots, exactly as d3-scale-chromatic 3.1.1
// defines them: ColorBrewer's 11-class diverging schemes (Cynthia Brewer, Mark
// Harrower and The Pennsylvania State University, Apache 2.0) as uniform RGB
// B-splines, and matplotlib's viridis (Stéfan van der Walt and Nathaniel
// Smith, CC0) as 256 steps. d3-scale-chromatic's module builds all of its
// ~70 schemes when imported and nothing marks them droppable, so importing
// four of them put 15 KB into the page and into posenc/elements.
// palettes.test compares each map with d3-scale-chromatic's own.
import { interpolateRgbBasis } from 'd3-interpolate';

/** 'rrggbbrrggbb…' → ['#rrggbb', …] */
function hexColours(specifier) {
  return Array.from({ length: specifier.length / 6 }, (_, i) => '#' + specifier.slice(6 * i, 6 * i + 6));
}

export const interpolateBrBG = interpolateRgbBasis(
  hexColours('5430058c510abf812ddfc27df6e8c3f5f5f5c7eae580cdc135978f01665e003c30'),
);
export const interpolatePuOr = interpolateRgbBasis(
  hexColours('2d004b5427888073acb2abd2d8daebf7f7f7fee0b6fdb863e08214b358067f3b08'),
);
export const interpolateRdBu = interpolateRgbBasis(
  hexColours('67001fb2182bd6604df4a582fddbc7f7f7f7d1e5f092c5de4393c32166ac053061'),
);

const VIRIDIS = hexColours(
  '44015444025645045745055946075a46085c460a5d460b5e470d60470e61471063471164' +
    '47136548146748166848176948186a481a6c481b6d481c6e481d6f481f70482071482173' +
    '482374482475482576482677482878482979472a7a472c7a472d7b472e7c472f7d46307e' +
    '46327e46337f463480453581453781453882443983443a83443b84433d84433e85423f85' +
    '4240864241864142874144874045884046883f47883f48893e49893e4a893e4c8a3d4d8a' +
    '3d4e8a3c4f8a3c508b3b518b3b528b3a538b3a548c39558c39568c38588c38598c375a8c' +
    '375b8d365c8d365d8d355e8d355f8d34608d34618d33628d33638d32648e32658e31668e' +
    '31678e31688e30698e306a8e2f6b8e2f6c8e2e6d8e2e6e8e2e6f8e2d708e2d718e2c718e' +
    '2c728e2c738e2b748e2b758e2a768e2a778e2a788e29798e297a8e297b8e287c8e287d8e' +
    '277e8e277f8e27808e26818e26828e26828e25838e25848e25858e24868e24878e23888e' +
    '23898e238a8d228b8d228c8d228d8d218e8d218f8d21908d21918c20928c20928c20938c' +
    '1f948c1f958b1f968b1f978b1f988b1f998a1f9a8a1e9b8a1e9c891e9d891f9e891f9f88' +
    '1fa0881fa1881fa1871fa28720a38620a48621a58521a68522a78522a88423a98324aa83' +
    '25ab8225ac8226ad8127ad8128ae8029af7f2ab07f2cb17e2db27d2eb37c2fb47c31b57b' +
    '32b67a34b67935b77937b87838b9773aba763bbb753dbc743fbc7340bd7242be7144bf70' +
    '46c06f48c16e4ac16d4cc26c4ec36b50c46a52c56954c56856c66758c7655ac8645cc863' +
    '5ec96260ca6063cb5f65cb5e67cc5c69cd5b6ccd5a6ece5870cf5773d05675d05477d153' +
    '7ad1517cd2507fd34e81d34d84d44b86d54989d5488bd6468ed64590d74393d74195d840' +
    '98d83e9bd93c9dd93ba0da39a2da37a5db36a8db34aadc32addc30b0dd2fb2dd2db5de2b' +
    'b8de29bade28bddf26c0df25c2df23c5e021c8e020cae11fcde11dd0e11cd2e21bd5e21a' +
    'd8e219dae319dde318dfe318e2e418e5e419e7e419eae51aece51befe51cf1e51df4e61e' +
    'f6e620f8e621fbe723fde725',
);

/** Viridis at t in [0, 1], one of its 256 colours (as d3.interpolateViridis). */
export function interpolateViridis(t) {
  return VIRIDIS[Math.max(0, Math.min(VIRIDIS.length - 1, Math.floor(t * VIRIDIS.length)))];
}
