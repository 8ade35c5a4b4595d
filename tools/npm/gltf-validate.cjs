// Validates glTF files with the Khronos glTF validator (npm package gltf-validator) and prints
// one JSON report per file (the validator's own report format), as a JSON array on stdout.
// Usage: node tools/npm/gltf-validate.cjs FILE.glb [FILE...]
const fs = require("fs");
const path = require("path");
const validator = require("gltf-validator");

async function main(files) {
    const reports = [];
    for (const file of files) {
        const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
            uri: path.basename(file),
            maxIssues: 100,
        });
        reports.push(report);
    }
    process.stdout.write(JSON.stringify(reports));
}

main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`gltf-validate: ${error}\n`);
    process.exit(2);
});
