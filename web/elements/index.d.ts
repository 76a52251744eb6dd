// posenc/elements: the plots of the explainer page as custom elements.
// Importing the module defines every element (once).

/** Tag -> the plot it shows. */
export const ELEMENTS: Readonly<{
  'posenc-heatmap': 'heatmap';
  'posenc-waves': 'waves';
  'posenc-ladder': 'ladder';
  'posenc-row': 'row';
  'posenc-sensitivity': 'sensitivity';
  'posenc-offset-dots': 'offset-dots';
  'posenc-similarity': 'similarity';
  'posenc-rotation': 'rotation';
  'posenc-compare': 'compare';
  'posenc-precision': 'precision';
  'posenc-rope-relative': 'rope-relative';
  'posenc-attention': 'attention';
  'posenc-attention-rows': 'attention-rows';
  'posenc-sine-only': 'sine-only';
  'posenc-sine-fit': 'sine-fit';
  'posenc-extrapolation': 'extrapolation';
  'posenc-token-scale': 'token-scale';
}>;
export type PosencTag = keyof typeof ELEMENTS;
export type PosencPlot = (typeof ELEMENTS)[PosencTag];

/** Plot name -> tag. */
export const TAG_OF_PLOT: Readonly<Record<PosencPlot, PosencTag>>;

/** Attribute name -> the state key it sets (d-model -> dModel, compare -> versus, …). */
export const ATTRIBUTES: Readonly<Record<string, string>>;
export const THEMES: readonly ['auto', 'light', 'dark'];

/**
 * The attributes every element observes:
 * d-model (2–1024), length (8–2048), preset, layout, exponent, order, angle,
 * base (2–1e8), start, padding-row ("none" or a row), scale, odd-column
 * ("formula" | "zero": an odd d-model's last column), position
 * (0 – 2·length−1), offset (0 – length−1), dimension (0 – d-model−1),
 * compare (a preset), precision ("float16" | "bfloat16" | "float32": the
 * dtype path of posenc-precision), theme ("auto" | "light" | "dark"), height (100–4000 px
 * for the drawing; default: derived from the width), lang (zh* for Chinese).
 * Invalid values show an inline message naming the attribute instead of the plot.
 */
export class PosencPlotElement extends HTMLElement {
  /** The plot this element shows. */
  static section: PosencPlot | '';
  static readonly observedAttributes: string[];
  /**
   * Attribute -> the name inline error messages give it (default: the
   * attribute's own); embed.html sets its URL parameter names here.
   */
  attributeLabels: Readonly<Record<string, string>> | null;
  /** Redraws now instead of at the next animation frame. */
  render(): void;
}

/** The class behind one tag. */
export function elementClass(tag: PosencTag): typeof PosencPlotElement;

/** Defines every <posenc-*> element not yet in `registry` (done on import). */
export function defineElements(registry?: CustomElementRegistry): void;

/** Parses attributes (as given by `get`) into the page state; errors name the attribute. */
export function readAttributes(get: (name: string) => string | null): {
  state: Record<string, unknown>;
  extras: Record<string, unknown>;
  theme: 'auto' | 'light' | 'dark';
  errors: { attribute: string; message: string }[];
};

export interface PosencPickDetail {
  position?: number;
  offset?: number;
  dimension?: number;
}

declare global {
  interface HTMLElementTagNameMap {
    'posenc-heatmap': PosencPlotElement;
    'posenc-waves': PosencPlotElement;
    'posenc-ladder': PosencPlotElement;
    'posenc-row': PosencPlotElement;
    'posenc-sensitivity': PosencPlotElement;
    'posenc-offset-dots': PosencPlotElement;
    'posenc-similarity': PosencPlotElement;
    'posenc-rotation': PosencPlotElement;
    'posenc-compare': PosencPlotElement;
    'posenc-attention': PosencPlotElement;
    'posenc-attention-rows': PosencPlotElement;
    'posenc-sine-only': PosencPlotElement;
    'posenc-sine-fit': PosencPlotElement;
    'posenc-extrapolation': PosencPlotElement;
    'posenc-token-scale': PosencPlotElement;
  }
  interface HTMLElementEventMap {
    /** A click (or Enter) on the heatmap or similarity plot picked a cell; the attributes follow. */
    'posenc-pick': CustomEvent<PosencPickDetail>;
    /** The element drew its plot. */
    'posenc-render': Event;
  }
}
