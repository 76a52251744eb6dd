// The table of presets (what each framework's convention sets), in the language of the moment.
import { PRESETS, PRESET_NAMES } from '../lib/index.js';
import { firstFunction } from '../model/convention.js';

/** Fills `body` (the table's <tbody>) with one row per preset, worded by `t`. */
/** The rows of the presets table, worded by `t`: the cells of each, the preset's name first. */
export const presetRows = (t) =>
  PRESET_NAMES.map((name) => {
    const preset = PRESETS[name];
    return [
      t(`option.preset.${name}`),
      t(`option.layout.${preset.layout}`),
      t(`option.exponent.${preset.exponent}`),
      t(`option.order.${preset.order}`),
      t(`option.angle.${preset.angle}`),
      preset.paddingRow === null ? t('compare.none') : String(preset.paddingRow),
      preset.oddColumn === 'zero' ? t('compare.oddZero') : t('compare.oddAlone', firstFunction(preset)),
      t(`preset.${name}`),
    ];
  });

export function fillPresetTable(body, t) {
  body.replaceChildren(
    ...presetRows(t).map((cells) => {
      const row = document.createElement('tr');
      cells.forEach((text, index) => {
        const cell = document.createElement(index === 0 ? 'th' : 'td');
        if (index === 0) cell.scope = 'row';
        cell.textContent = text;
        row.append(cell);
      });
      return row;
    }),
  );
}
