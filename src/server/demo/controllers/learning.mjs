// Controllers of the demo `learning` app (docs/workspace.md): `learning.LearningContentRegistration`
// `uploadPackage` stores an e-learning zip package and registers it with the title and launch file
// read from its `imsmanifest.xml`. `files` names the part each intent receives (docs/protocol.md "Multipart uploads").
import { PackageError, readContentPackage } from './content-package.mjs';

export class LearningContentRegistration {
  static permissions = { uploadPackage: ['agent', 'admin'] };
  static files = { uploadPackage: ['package'] };

  async on_upload_package(ctx, args) {
    const { title } = args;
    const upload = ctx.files.get('package');
    if (!upload) ctx.reject('Upload the zip package as the file part "package"', 'package');
    if (title !== undefined && (typeof title !== 'string' || title.trim() === '')) ctx.reject('title must be a non-empty string when given', 'title');
    let content;
    try {
      content = await readContentPackage(upload.path);
    } catch (error) {
      if (error instanceof PackageError) ctx.reject(error.message, 'package');
      throw error;
    }
    const name = (title ?? content.title ?? '').trim().slice(0, 200);
    if (name === '') ctx.reject('imsmanifest.xml has no title: give one with "title"', 'title');
    const registration = await ctx.data.create(
      'learning.LearningContentRegistration',
      { title: name, launch_file: content.launchFile.slice(0, 500), status: 'ready' },
      { sideEffects: { multipartFormUpload: true, fileFieldMapping: { package: 'package' } } },
    );
    return {
      payload: registration,
      message: `Registered "${name}" (launch file ${content.launchFile})`,
      extras: { entries: content.entries, uncompressed_bytes: content.uncompressedBytes },
    };
  }
}
