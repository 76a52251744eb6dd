// English prose of the precision section (spread into en.js).
const r = String.raw;

export default {
  'controls.precision': 'Dtype (half precision)',
  'precision.title': 'Half precision: what float16 and bfloat16 do to the angles',
  'precision.text': r`Frameworks rarely compute this table in float64. Positions, inverse frequencies and their product $pos\cdot\omega_i$ live in the model's dtype, and every step is rounded to nearest (ties to even). The angle then errs by up to half the format's spacing at that size: in float16 (11 significant bits) angles between 1024 and 2048 are whole numbers, so they err by up to 0.5 rad; in bfloat16 (8 bits) by up to 4 rad — a large part of a period of $\sin$ and $\cos$. Positions themselves collide: bfloat16 cannot tell 256 from 257, float16 cannot tell 2048 from 2049 and turns 65520 into $\infty$.

The map below is the table computed with position, frequency and angle in the chosen format (the control "Dtype (half precision)") minus the exact table, computed live by posenc's core, which rounds each step as the frameworks' casts do. The replays under it are the reported cases, recomputed: EleutherAI/gpt-neox issue #1003{cite:gpt-neox-1003} (fixed by PR #1041{cite:gpt-neox-1041}, which also addresses #1016{cite:gpt-neox-1016}), bfloat16 positions (Hugging Face transformers PR #29285{cite:transformers-29285} and #29496{cite:transformers-29496} keep RoPE in float32), and huggingface/diffusers issue #13920{cite:diffusers-13920} (fixed by PR #13922{cite:diffusers-13922}), where autocast ran a float32 matmul of positions above 65536 in bfloat16.`,
  'precision.fix': r`**What to do:** compute positions, frequencies and angles in float32 (better float64) with autocast disabled, take $\sin$ and $\cos$, and cast only the result to the model's dtype. Float32 angles still err by up to about $2^{-23}$ of the angle, since inv_freq is rounded to float32 once and the product again (about $10^{-3}$ rad at position 8192), far below what half precision does. In posenc the knobs positionDtype, frequencyDtype, exponentDtype and angleDtype reproduce any of these paths (docs/precision.md).`,
};
