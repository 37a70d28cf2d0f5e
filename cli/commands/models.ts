/**
 * `quin models pull <repo-id>`: download a Hugging Face ONNX model into QUIN_MODELS_DIR.
 * `quin models list`: model folders present, which one serves each role, and the settings its
 * folder can supply (verdict.json, combo.json) with the value in force and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { getConfig } from '../../lib/config';
import { describeError } from '../../lib/errors';
import { readModelFolder, resolveModelDir, type ModelFolder, type ModelRole } from '../../lib/models';
import { pullModel } from '../../lib/models/hub';
import { projectRoot } from '../../lib/paths';
import { printJson, printTable } from '../output';
import { nliSettingsInForce, rerankerSettingsInForce, type RoleSettings } from './model-settings';

const ROLE_SETTING: Record<ModelRole, string> = { encoder: 'QUIN_ENCODER_MODEL', reranker: 'QUIN_RERANKER_MODEL', nli: 'QUIN_NLI_MODEL' };
const FOLDER_SETTINGS: Partial<Record<ModelRole, (folder: ModelFolder) => RoleSettings>> = {
  nli: nliSettingsInForce,
  reranker: rerankerSettingsInForce,
};

function modelFolders(dirs: string[]): string[] {
  const out = new Set<string>();
  for (const d of dirs) {
    if (!fs.existsSync(d)) continue;
    for (const e of fs.readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory() && !e.name.startsWith('.')) out.add(path.join(d, e.name));
  }
  return [...out].sort();
}

export function register(program: Command): void {
  const models = program.command('models').description('ONNX models: download from the Hugging Face hub, list what is installed');

  models
    .command('pull <repo-id>')
    .description('download a model (ONNX export + tokenizer + config) from the hub (HF_ENDPOINT) into QUIN_MODELS_DIR/<name>')
    .option('--revision <rev>', 'branch, tag or commit', 'main')
    .option('--name <folder>', 'folder name under QUIN_MODELS_DIR (default: the repo name)')
    .option('--onnx-file <path>', 'repo file to use as the model (default onnx/model.onnx, else model.onnx)')
    .action(async (repo: string, opts: { revision: string; name?: string; onnxFile?: string }) => {
      const config = getConfig();
      let last = 0;
      const r = await pullModel({
        endpoint: config.hfEndpoint,
        token: config.hfToken,
        repo,
        revision: opts.revision,
        name: opts.name,
        onnxFile: opts.onnxFile,
        modelsDir: config.modelsDir,
        onProgress: (file, bytes, total) => {
          if (Date.now() - last < 1000 && bytes !== total) return;
          last = Date.now();
          process.stderr.write(`  ${file}: ${(bytes / 1e6).toFixed(1)}${total ? ` / ${(total / 1e6).toFixed(1)}` : ''} MB\n`);
        },
      });
      const bytes = r.files.reduce((s, f) => s + f.size, 0);
      process.stdout.write(
        `${repo}@${r.sha.slice(0, 12)} → ${r.dir} (${r.files.length} files, ${(bytes / 1e6).toFixed(1)} MB, verified)\n`,
      );
      process.stdout.write(
        `use it with e.g. QUIN_RERANKER_MODEL=${path.basename(r.dir)} (or QUIN_NLI_MODEL / QUIN_ENCODER_MODEL with QUIN_ENCODER=onnx)\n`,
      );
    });

  models
    .command('list')
    .description('model folders in QUIN_MODELS_DIR and models/, and the folder serving each role')
    .option('--json', 'print as JSON')
    .action((opts: { json?: boolean }) => {
      const config = getConfig();
      const roles = Object.fromEntries(
        (Object.keys(ROLE_SETTING) as ModelRole[]).map((role) => {
          try {
            return [role, resolveModelDir(role, config)];
          } catch (e) {
            return [role, `error: ${describeError(e)}`];
          }
        }),
      ) as Record<ModelRole, string | null>;
      const read = new Map<string, ModelFolder>();
      const rows = modelFolders([config.modelsDir, path.join(projectRoot(), 'models')]).map((dir) => {
        try {
          const f = readModelFolder(dir);
          read.set(dir, f);
          const meta = fs.existsSync(path.join(dir, '.quin-model.json'))
            ? (JSON.parse(fs.readFileSync(path.join(dir, '.quin-model.json'), 'utf8')) as { repo?: string })
            : {};
          const size = fs.statSync(f.onnxPath).size;
          const serves = (Object.keys(roles) as ModelRole[]).filter((r) => roles[r] === dir);
          return {
            name: f.name,
            dir,
            labels: f.labels,
            pooling: f.pooling ?? null,
            onnxMB: +(size / 1e6).toFixed(1),
            from: meta.repo ?? 'local',
            serves,
            error: null,
          };
        } catch (e) {
          return {
            name: path.basename(dir),
            dir,
            labels: [],
            pooling: null,
            onnxMB: null,
            from: null,
            serves: [],
            error: describeError(e),
          };
        }
      });
      const settings = Object.fromEntries(
        (Object.keys(FOLDER_SETTINGS) as ModelRole[]).map((role) => {
          const dir = roles[role];
          if (!dir || dir.startsWith('error: ')) return [role, null];
          try {
            return [role, FOLDER_SETTINGS[role]!(read.get(dir) ?? readModelFolder(dir))];
          } catch (e) {
            return [role, { settings: [], note: describeError(e) }];
          }
        }),
      ) as Partial<Record<ModelRole, RoleSettings | null>>;
      if (opts.json) return printJson({ roles, settings, models: rows });
      printTable(
        ['model', 'labels', 'onnx MB', 'from', 'serves', 'problem'],
        rows.map((r) => [r.name, r.labels.join('/'), r.onnxMB, r.from, r.serves.join(', '), r.error]),
      );
      for (const role of Object.keys(ROLE_SETTING) as ModelRole[]) {
        process.stdout.write(`${role} (${ROLE_SETTING[role]}): ${roles[role] ?? 'off'}\n`);
        for (const x of settings[role]?.settings ?? []) process.stdout.write(`  ${x.setting} = ${x.value} (${x.origin})\n`);
        if (settings[role]?.note) process.stdout.write(`  ${settings[role].note}\n`);
      }
    });
}
