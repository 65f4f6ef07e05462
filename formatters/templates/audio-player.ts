// Built-in template of the `audio-player` formatter (PLUGINS §6), run privately against the
// item: nothing outside the item is visible. The source is trimmed before compiling.
export const AUDIO_PLAYER_TEMPLATE = `
<script>Y.use('squarespace-audio-player-frontend');</script>
<div class="squarespace-audio-player" data-audio-asset-url="{structuredContent.audioAssetUrl}" data-item-id="{id}" id="audio-player-{id}"></div>
`;
